package io.webindex.cli;

import io.webindex.core.args.Args;
import io.webindex.store.TableDump;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Set;
import org.apache.accumulo.core.client.Connector;

/** {@code bin/webindex dump}: a whole table in the dump format. */
final class DumpCommand implements Command {
  @Override
  public String name() {
    return "dump";
  }

  @Override
  public String summary() {
    return "print a whole table, one cell per line, counts decoded";
  }

  @Override
  public String usage() {
    return """
        usage: bin/webindex dump [--table T] [--out FILE] [--conf FILE]

        Prints every cell of table T in key order, one per line:
          row<TAB>family:qualifier<TAB>value
        with encoded counts decoded (t:3:com.c, rank:3:com.c) and an empty column
        printed as ':' (the dump format of docs/tables.md).

        options:
          --table T     the table to dump (default: the served table)
          --out FILE    write to FILE (replaced only when the dump is complete)
                        instead of standard output
          --conf FILE   the configuration to use (see bin/webindex help)
        """;
  }

  @Override
  public int run(List<String> raw, Cli ctx) throws IOException {
    Args args = Args.parse(raw, Set.of("table", "out", Cli.CONF_OPTION), Set.of());
    args.expectPositionals(0, "");
    String table = ctx.tableOrServed(args.value("table"), args.value(Cli.CONF_OPTION).orElse(null));
    Path outFile = args.value("out").map(ctx::userPath).orElse(null);
    Connector connector = ctx.connect(args.value(Cli.CONF_OPTION).orElse(null));
    if (outFile == null) {
      ctx.out().flush();
      Writer w =
          new BufferedWriter(new OutputStreamWriter(ctx.rawOut(), StandardCharsets.UTF_8), 1 << 16);
      TableDump.dump(connector, table, w);
      return 0;
    }
    Path dir = outFile.getParent();
    if (dir != null && !Files.isDirectory(dir)) {
      throw new UsageException("no such directory: " + dir);
    }
    Path tmp = Files.createTempFile(dir, "." + outFile.getFileName(), ".tmp");
    try {
      long n;
      try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
        n = TableDump.dump(connector, table, w);
      }
      Files.move(tmp, outFile, StandardCopyOption.REPLACE_EXISTING);
      ctx.err().println("dumped " + n + " cells of table " + table + " to " + outFile);
    } finally {
      Files.deleteIfExists(tmp);
    }
    return 0;
  }
}
