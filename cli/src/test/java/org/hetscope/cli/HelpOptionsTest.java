package org.hetscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Every command and subcommand answers {@code --help} and {@code -V} with its usage or the version, exit code 0. */
class HelpOptionsTest {

    /** Argument lists naming each command, with a placeholder for what a parent requires before its subcommand. */
    static void paths(CommandLine cl, List<String> prefix, List<List<String>> out) {
        for (var e : cl.getSubcommands().entrySet()) {
            if (e.getKey().equals("help") || !e.getValue().getCommandName().equals(e.getKey())) {
                continue; // the help command itself, and aliases
            }
            List<String> path = new ArrayList<>(prefix);
            path.add(e.getKey());
            out.add(path);
            List<String> parent = new ArrayList<>(path);
            for (var p : e.getValue().getCommandSpec().positionalParameters()) {
                if (p.required()) {
                    parent.add("FILE"); // e.g. `memory FILE residency`
                }
            }
            paths(e.getValue(), parent, out);
        }
    }

    @Test
    void everyCommandPrintsItsUsageOnHelp() {
        List<List<String>> all = new ArrayList<>();
        paths(Main.commandLine(null), List.of(), all);
        assertTrue(all.size() >= 30, "commands found: " + all);
        for (List<String> path : all) {
            List<String> args = new ArrayList<>(path);
            args.add("--help");
            CliRun r = CliRun.of(args.toArray(String[]::new));
            String name = String.join(" ", path).replace(" FILE", "");
            assertEquals(0, r.exitCode(), name + ": " + r.err());
            assertTrue(r.out().startsWith("Usage: hetscope " + name + " "), name + ": " + r.out());
            assertTrue(r.out().contains("-h, --help"), name + ": " + r.out());
            // a description with an unescaped '%' makes picocli print a warning instead of the text
            assertFalse(r.err().contains("WARN") || r.out().contains("WARN"), name + ": " + r.err());
        }
    }

    @Test
    void versionOnASubcommand() {
        CliRun r = CliRun.of("ctf", "count", "-V");
        assertEquals(0, r.exitCode());
        assertEquals("hetscope 0.1.0", r.out().strip());
    }
}
