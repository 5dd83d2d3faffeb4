package org.hetscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.hetscope.capture.kernels.run.KernelTables;
import org.hetscope.formats.ctf.mapping.CtfTables;
import org.hetscope.formats.opencl.OpenclTables;
import org.hetscope.formats.paje.PajeTables;
import org.hetscope.formats.paje.starpu.StarpuTables;
import org.hetscope.formats.rocpd.rocprof.RocprofTables;
import org.hetscope.model.TableSpec;
import org.hetscope.store.CoreTables;
import org.hetscope.store.SchemaDoc;
import org.junit.jupiter.api.Test;

/**
 * docs/schema.md agrees with the table declarations: its column reference is exactly what {@link SchemaDoc}
 * writes from them, every declared table is in the list, and the hand-written overview rows name only columns
 * their table declares.
 */
class SchemaDocTest {
    private static final Path ROOT = Path.of(System.getProperty("hetscope.root", "."));

    static List<TableSpec> all() {
        List<TableSpec> all = new ArrayList<>(CoreTables.ALL);
        all.addAll(PajeTables.ALL);
        all.addAll(StarpuTables.ALL);
        all.addAll(CtfTables.ALL);
        all.addAll(OpenclTables.ALL);
        all.addAll(KernelTables.ALL);
        all.addAll(RocprofTables.ALL);
        return all;
    }

    @Test
    void everyDeclarationInTheSourcesIsListed() throws Exception {
        // each table is a subclass of TableSpec in some module's main sources
        Pattern decl = Pattern.compile("(?m)^\\s*(?:public\\s+|static\\s+|final\\s+)*class \\w+ extends TableSpec");
        int declared = 0;
        try (Stream<Path> files = Files.walk(ROOT)) {
            for (Path p : files.filter(f -> f.toString().endsWith(".java") && f.toString().contains("/src/main/")
                    && !f.toString().contains("/target/") && !f.toString().contains("node_modules")).toList()) {
                Matcher m = decl.matcher(Files.readString(p));
                while (m.find()) {
                    declared++;
                }
            }
        }
        assertEquals(declared, all().size(), "declarations in the sources vs. the list in SchemaDocTest.all()");
        assertEquals(all().size(), all().stream().map(TableSpec::name).distinct().count(), "table names unique");
    }

    @Test
    void columnReferenceIsGeneratedFromTheDeclarations() throws Exception {
        Path doc = ROOT.resolve("docs/schema.md");
        String text = Files.readString(doc);
        String expected = SchemaDoc.markdown(all());
        int begin = text.indexOf(SchemaDoc.BEGIN);
        int end = text.indexOf(SchemaDoc.END);
        if (Boolean.getBoolean("hetscope.updateDocs")) {
            String updated = begin < 0 ? text + "\n" + expected
                    : text.substring(0, begin) + expected + text.substring(end + SchemaDoc.END.length() + 1);
            Files.writeString(doc, updated);
            return;
        }
        assertTrue(begin >= 0 && end > begin, "docs/schema.md lacks the generated column reference; run this test"
                + " with -Dhetscope.updateDocs=true");
        String actual = text.substring(begin, end + SchemaDoc.END.length() + 1);
        if (!actual.equals(expected)) {
            fail("docs/schema.md's column reference differs from the table declarations; run this test with "
                    + "-Dhetscope.updateDocs=true to rewrite it");
        }
    }

    @Test
    void overviewRowsNameOnlyDeclaredColumns() throws Exception {
        Map<String, TableSpec> byName = all().stream().collect(Collectors.toMap(TableSpec::name, t -> t));
        String text = Files.readString(ROOT.resolve("docs/schema.md"));
        text = text.substring(0, text.indexOf(SchemaDoc.BEGIN));
        Pattern row = Pattern.compile("^\\| `(\\w+)` \\| ([^|]*) \\|");
        Set<String> seen = new HashSet<>();
        String header = null;
        for (String line : text.split("\n")) {
            if (!line.startsWith("|")) {
                header = null;
                continue;
            }
            if (header == null) {
                header = line;
            }
            Matcher m = row.matcher(line);
            // only the overview tables (| table | columns | meaning |); other tables list events, not store tables
            if (!header.startsWith("| table | columns |") || !m.find()) {
                continue;
            }
            TableSpec t = byName.get(m.group(1));
            if (t == null) {
                continue; // views and analysis tables
            }
            seen.add(t.name());
            Set<String> declared = t.columns().stream().map(TableSpec.Column::name).collect(Collectors.toSet());
            // the cell lists names, some annotated in parentheses: "kind (CPU/GPU/ACCELERATOR), ordinal, ..."
            String cell = m.group(2).replaceAll("\\([^)]*\\)", "").replaceAll("`[^`]*`", "");
            Set<String> unknown = new TreeSet<>();
            for (String name : cell.split(",")) {
                String n = name.trim();
                if (n.matches("[a-z_]+") && !declared.contains(n)) {
                    unknown.add(n);
                }
            }
            assertEquals(Set.of(), unknown, t.name() + ": overview names columns the declaration lacks");
        }
        Set<String> missing = new TreeSet<>(byName.keySet());
        missing.removeAll(seen);
        assertEquals(Set.of(), missing, "declared tables without an overview row in docs/schema.md");
    }
}
