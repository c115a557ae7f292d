package io.webindex.cli;

import io.webindex.core.args.Args;
import io.webindex.store.StopOnSignal;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * {@code bin/webindex dev}: runs an {@link EmbeddedAccumulo} until interrupted, so that other
 * commands (and other processes) can use it through its connection file.
 */
final class DevCommand implements Command {
  @Override
  public String name() {
    return "dev";
  }

  @Override
  public String summary() {
    return "run an embedded Accumulo and write its connection file (until Ctrl-C)";
  }

  @Override
  public String usage() {
    return """
        usage: bin/webindex dev [--dir DIR]

        Starts an embedded Accumulo (MiniAccumuloCluster: ZooKeeper, master, one tablet
        server, local file system) in DIR and keeps it running until Ctrl-C. While it runs,
        DIR/webindex.properties and DIR/accumulo.password say how to reach it: every other
        command uses them when there is no --conf and no conf/webindex.properties, and any
        process can pass --conf DIR/webindex.properties. They name the Accumulo user webindex,
        which has the permissions of docs/permissions.md (create tables, and everything on the
        tables it creates); its password is random, in DIR/accumulo.password only. DIR is
        made owner-only (rwx------). The tables live only as long as the instance: Ctrl-C
        stops it and removes the connection files. Only one instance can run in a directory.

        options:
          --dir DIR     where the instance lives (default: work/dev in the webindex directory)
        """;
  }

  @Override
  public int run(List<String> raw, Cli ctx) throws Exception {
    Args args = Args.parse(raw, Set.of("dir"), Set.of());
    args.expectPositionals(0, "");
    Path dir = args.value("dir").map(ctx::userPath).orElse(ctx.defaultDevDir());
    try (DevLock lock = DevLock.acquire(dir)) {
      EmbeddedAccumulo embedded = EmbeddedAccumulo.start(dir, ctx.embeddedNativeMap());
      // Ctrl-C or SIGTERM: the instance is closed (connection files removed, cluster stopped)
      // before the JVM goes
      try (StopOnSignal signal = new StopOnSignal(ctx::requestStop)) {
        try {
          printHowToUse(ctx, embedded);
          ctx.awaitStop();
        } finally {
          embedded.close();
        }
      }
    }
    return 0;
  }

  private static void printHowToUse(Cli ctx, EmbeddedAccumulo embedded) {
    PrintWriter out = ctx.out();
    boolean isDefault = embedded.dir().equals(ctx.defaultDevDir());
    out.println(
        "embedded Accumulo '"
            + embedded.instanceName()
            + "' is running (zookeepers "
            + embedded.zookeepers()
            + ")");
    out.println("connection file: " + embedded.connectionFile());
    out.println("in-memory map of its tablet server: " + embedded.memoryMap().label());
    if (isDefault) {
      out.println(
          "other commands use it when there is no --conf and no conf/webindex.properties, e.g.");
      out.println("  bin/webindex query top --table T");
    } else {
      out.println("use it from other commands with --conf, e.g.");
      out.println("  bin/webindex query top --table T --conf " + embedded.connectionFile());
    }
    out.println("press Ctrl-C to stop it (its tables go with it)");
    out.flush();
  }
}
