package org.hetscope.formats.paje;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.hetscope.model.SkipReason;
import org.hetscope.model.Progress;
import org.junit.jupiter.api.Test;

/** The generic reader on small hand-made traces whose expected content is written out by hand. */
class PajeReaderTest {

    /** Keeps everything a reader hands over. */
    static final class Recorder implements PajeListener {
        final List<PajeState> states = new ArrayList<>();
        final List<PajeEvent> events = new ArrayList<>();
        final List<PajeLink> links = new ArrayList<>();
        final List<String> variables = new ArrayList<>();
        final List<String> problems = new ArrayList<>();
        final List<PajeContainer> containers = new ArrayList<>();

        @Override public void container(PajeContainer c) { containers.add(c); }
        @Override public void state(PajeState s) { states.add(s); }
        @Override public void event(PajeEvent e) { events.add(e); }
        @Override public void link(PajeLink l) { links.add(l); }
        @Override public void variable(PajeContainer c, PajeType t, long time, double v, long line) {
            variables.add(c.alias() + " " + t.alias() + " " + time + " " + v);
        }
        @Override public void problem(SkipReason reason, String what, long line, String detail) {
            problems.add(line + ": " + reason.id() + " " + what);
        }

        String statesText() {
            StringBuilder b = new StringBuilder();
            states.stream().sorted(java.util.Comparator.comparingLong(PajeState::start)
                            .thenComparing(s -> s.container().alias()).thenComparingInt(PajeState::depth))
                    .forEach(s -> b.append(s.container().alias()).append(' ').append(s.type().alias()).append(' ')
                            .append(s.value().name()).append(' ').append(s.start()).append('-').append(s.end())
                            .append(" d").append(s.depth()).append('\n'));
            return b.toString();
        }
    }

    static Recorder read(String text, Integer shift) throws Exception {
        Recorder r = new Recorder();
        new PajeReader(r, shift).read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)),
                Progress.NONE);
        return r;
    }

    /** PajeNG-style header: field order differs from StarPU's, extra fields, seconds as the time unit. */
    static final String HEADER = """
            %EventDef PajeDefineContainerType 0
            % Alias string
            % Type string
            % Name string
            %EndEventDef
            %EventDef PajeDefineStateType 1
            % Alias string
            % Type string
            % Name string
            %EndEventDef
            %EventDef PajeDefineEventType 2
            % Type string
            % Alias string
            % Name string
            %EndEventDef
            %EventDef PajeDefineVariableType 3
            % Alias string
            % Type string
            % Name string
            % Color color
            %EndEventDef
            %EventDef PajeDefineLinkType 4
            % Alias string
            % Type string
            % StartContainerType string
            % EndContainerType string
            % Name string
            %EndEventDef
            %EventDef PajeDefineEntityValue 5
            % Alias string
            % Type string
            % Name string
            % Color color
            %EndEventDef
            %EventDef PajeCreateContainer 6
            % Time date
            % Alias string
            % Type string
            % Container string
            % Name string
            %EndEventDef
            %EventDef PajeDestroyContainer 7
            % Time date
            % Type string
            % Name string
            %EndEventDef
            %EventDef PajeSetState 8
            % Time date
            % Type string
            % Container string
            % Value string
            %EndEventDef
            %EventDef PajePushState 9
            % Container string
            % Time date
            % Type string
            % Value string
            % Mark string
            %EndEventDef
            %EventDef PajePopState 10
            % Time date
            % Type string
            % Container string
            %EndEventDef
            %EventDef PajeNewEvent 11
            % Value string
            % Time date
            % Container string
            % Type string
            % Weight double
            %EndEventDef
            %EventDef PajeSetVariable 12
            % Time date
            % Type string
            % Container string
            % Value double
            %EndEventDef
            %EventDef PajeAddVariable 13
            % Time date
            % Type string
            % Container string
            % Value double
            %EndEventDef
            %EventDef PajeSubVariable 14
            % Time date
            % Type string
            % Container string
            % Value double
            %EndEventDef
            %EventDef PajeStartLink 15
            % Time date
            % Type string
            % Container string
            % StartContainer string
            % Value string
            % Key string
            %EndEventDef
            %EventDef PajeEndLink 16
            % Time date
            % Type string
            % Container string
            % EndContainer string
            % Value string
            % Key string
            %EndEventDef
            0 M 0 Machine
            0 C M "Compute Core"
            1 ST C "Core State"
            2 C E "Mark event"
            3 V M "Power (W)" "1 0 0"
            4 L M C C "Message link"
            5 r ST Running "0 1 0"
            5 w ST "Waiting for data" "1 .5 0"
            5 x E Crash "1 0 0"
            6 0 m1 M 0 "node one"
            6 0.5 c1 C m1 core1
            6 0.5 c2 C m1 "core two"
            """;

    @Test
    void headerDrivenFieldsStatesEventsVariablesLinks() throws Exception {
        Recorder r = read(HEADER + """
                8 1 ST c1 r
                9 c1 1.25 ST w tag
                10 1.5 ST c1
                8 2 ST c1 w
                11 x 1.75 c2 E 0.5
                11 "not declared" 1.8 c2 E 1
                12 1 V m1 10
                13 2 V m1 2.5
                14 3 V m1 0.5
                16 2.5 L m1 c2 msg k1
                15 2 L m1 c1 msg k1
                15 3 L m1 c2 msg k2
                16 3.25 L m1 c1 msg k2
                7 4 C c1
                """, null);
        assertEquals(List.of(), r.problems);
        // Seconds: 1.25 s = 1 250 000 000 ns. The push at 1.25 nests over the set state; the set at 2 clears it.
        assertEquals("""
                c1 ST Running 1000000000-2000000000 d0
                c1 ST Waiting for data 1250000000-1500000000 d1
                c1 ST Waiting for data 2000000000-4000000000 d0
                """, r.statesText());
        PajeState pushed = r.states.stream().filter(s -> s.depth() == 1).findFirst().orElseThrow();
        assertEquals("tag", pushed.extras()[0]);
        assertEquals("Mark", pushed.definition().extraNames()[0]);
        assertEquals("1 .5 0", pushed.value().color());
        assertEquals(2, r.events.size());
        assertEquals("Crash", r.events.get(0).value().name());
        assertEquals("0.5", r.events.get(0).extra("Weight"));
        assertEquals("core two", r.events.get(0).container().name());
        assertEquals("not declared", r.events.get(1).value().name());
        assertEquals(List.of("m1 V 1000000000 10.0", "m1 V 2000000000 12.5", "m1 V 3000000000 12.0"),
                r.variables);
        assertEquals(2, r.links.size());
        PajeLink k1 = r.links.stream().filter(l -> l.key().equals("k1")).findFirst().orElseThrow();
        assertEquals("c1", k1.startContainer().alias());
        assertEquals("c2", k1.endContainer().alias());
        assertEquals(2_000_000_000L, k1.start());
        assertEquals(2_500_000_000L, k1.end());
        PajeContainer core = r.containers.get(1);
        assertEquals("m1", core.parent().alias());
        assertEquals(4_000_000_000L, core.destroyed());
    }

    @Test
    void unsortedInputIsReplayedInTimeOrderPerContainerAndType() throws Exception {
        Recorder r = read(HEADER + """
                8 3 ST c1 r
                8 1 ST c1 w
                8 2 ST c1 r
                12 5 V m1 1
                13 4 V m1 3
                """, null);
        assertEquals("""
                c1 ST Waiting for data 1000000000-2000000000 d0
                c1 ST Running 2000000000-3000000000 d0
                c1 ST Running 3000000000-5000000000 d0
                """, r.statesText());
        assertEquals(List.of("m1 V 4000000000 3.0", "m1 V 5000000000 1.0"), r.variables);
    }

    @Test
    void badInputIsReportedWithItsLineAndTheRestIsKept() throws Exception {
        int headerLines = (int) HEADER.lines().count();
        Recorder r = read(HEADER + """
                99 1 ST c1 r
                8 1 ST c1 r
                10 2 ST c2
                16 3 L m1 c2 msg lost
                8 x ST c1 r
                8 4 ST c1 r extra
                6 5 c9 C nowhere c9
                8 5 ST c1""", null);
        assertEquals(List.of(
                (headerLines + 1) + ": damaged_record undefined event id",
                (headerLines + 5) + ": damaged_record bad field value",
                (headerLines + 6) + ": damaged_record line with extra fields",
                (headerLines + 7) + ": damaged_record bad field value",
                (headerLines + 8) + ": truncated last line",
                (headerLines + 3) + ": unmatched_end pop without push",
                (headerLines + 4) + ": unmatched_flow link end without start"), r.problems);
        // The good set state survives, closed at the trace end (5 s, the latest valid time).
        assertEquals("c1 ST Running 1000000000-5000000000 d0\n", r.statesText());
    }

    @Test
    void quotedStringsTabsAndAliasScoping() throws Exception {
        // "F" is both a link type and a state value, "P" a container type and a state value (as in StarPU).
        Recorder r = read("""
                %EventDef\tPajeDefineContainerType\t1
                %\tAlias\tstring
                %\tType\tstring
                %\tName\tstring
                %EndEventDef
                %EventDef PajeDefineStateType 3
                %\tAlias\tstring
                %\tType\tstring
                %\tName\tstring
                %EndEventDef
                %EventDef\tPajeDefineLinkType\t5
                %\tAlias\tstring
                %\tType\tstring
                %\tStartContainerType\tstring
                %\tEndContainerType\tstring
                %\tName\tstring
                %EndEventDef
                %EventDef\tPajeDefineEntityValue\t6
                %\tAlias\tstring
                %\tType\tstring
                %\tName\tstring
                %\tColor\tcolor
                %EndEventDef
                %EventDef\tPajeCreateContainer\t7
                %\tTime\tdate
                %\tAlias\tstring
                %\tType\tstring
                %\tContainer\tstring
                %\tName\tstring
                %EndEventDef
                %EventDef PajeSetState 10
                %\tTime\tdate
                %\tContainer\tstring
                %\tType\tstring
                %\tValue\tstring
                %EndEventDef
                1       P      0       "Program"                      \t
                1       Mm      P       "Memory Manager"
                3       MS       Mm       "Memory Node State"
                5       F       P\tMm\tMm      "Intra-node data Fetch"
                6       F       MS      Freeing         ".6 .3 .0"\t\t
                6       P       MS       Progressing         ".1 .3 .1"
                7\t0.0\tp\tP\t0\tprogram\s
                7\t35.493828000\tmm0\tMm\tp\t"MEMORY MANAGER 0"
                10\t81.105686000\tmm0\tMS\tF
                10\t81.105686123\tmm0\tMS\t"P"
                """, null);
        assertEquals(List.of(), r.problems);
        assertEquals(9, new PajeReader(new Recorder(), null).timeShift());
        // No StarPU field in this header: seconds. 81.105686123 s is exact in nanoseconds.
        assertEquals("""
                mm0 MS Freeing 81105686000-81105686123 d0
                mm0 MS Progressing 81105686123-81105686123 d0
                """, r.statesText());
        assertEquals("MEMORY MANAGER 0", r.containers.get(1).name());
        assertNull(r.containers.get(0).parent());
        assertTrue(r.states.get(1).closedByEnd());
    }

    @Test
    void valueTextsAreResolvedPerTypeAndFollowLaterDeclarations() throws Exception {
        // "r" names a value of two state types (each with two declared values); "q" is used before a
        // PajeDefineEntityValue declares it.
        Recorder r = read(HEADER + """
                1 ST2 C "Second state"
                5 r ST2 Ready "0 0 1"
                5 z ST2 Zombie "1 1 1"
                8 1.0 ST c1 r
                8 1.1 ST2 c1 r
                8 1.2 ST c1 q
                5 q ST Queued "0 1 1"
                8 1.3 ST c1 q
                8 1.4 ST2 c1 r
                """, null);
        assertEquals(List.of(), r.problems);
        assertEquals("""
                c1 ST Running 1000000000-1200000000 d0
                c1 ST2 Ready 1100000000-1400000000 d0
                c1 ST q 1200000000-1300000000 d0
                c1 ST Queued 1300000000-1400000000 d0
                c1 ST2 Ready 1400000000-1400000000 d0
                """, r.statesText());
    }

    @Test
    void olderFieldNamesContainerTypeAndEntityType() throws Exception {
        Recorder r = read("""
                %EventDef PajeDefineContainerType 1
                % Name string
                % ContainerType string
                % Alias string
                %EndEventDef
                %EventDef PajeDefineStateType 2
                % Name string
                % ContainerType string
                % Alias string
                %EndEventDef
                %EventDef PajeDefineEntityValue 3
                % Name string
                % EntityType string
                % Alias string
                %EndEventDef
                %EventDef PajeCreateContainer 4
                % Time date
                % Name string
                % Type string
                % Container string
                % Alias string
                %EndEventDef
                %EventDef PajeSetState 5
                % Time date
                % EntityType string
                % Container string
                % Value string
                %EndEventDef
                1 Process 0 P
                2 "Process State" P S
                3 Running S r
                4 0 proc0 P 0 p0
                5 0.5 S p0 r
                5 2 S p0 r
                """, null);
        assertEquals(List.of(), r.problems);
        assertEquals("""
                p0 S Running 500000000-2000000000 d0
                p0 S Running 2000000000-2000000000 d0
                """, r.statesText());
    }
}
