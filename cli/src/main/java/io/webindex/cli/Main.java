package io.webindex.cli;

import static io.webindex.cli.ExitCodes.FAILED;
import static io.webindex.cli.ExitCodes.OK;
import static io.webindex.cli.ExitCodes.USER_ERROR;

import io.webindex.cli.bench.BenchCommand;
import io.webindex.cli.bench.BenchWebCommand;
import io.webindex.cli.bench.GenCommand;
import io.webindex.core.args.ArgsException;
import io.webindex.frontier.FrontierServing;
import io.webindex.store.Failures;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code bin/webindex}: dispatches to the {@link Command}s. The only place that calls {@code
 * System.exit}.
 *
 * <p>Exit status ({@link ExitCodes}, the same as the Tools': {@link
 * io.webindex.core.exit.ExitStatus}, failures mapped by {@link Failures}): 0 success; 1 only the
 * verdict INCONSISTENT of check and demo; 2 an error the operator can fix (bad arguments, missing
 * configuration, a missing table, Accumulo refusing, an unreadable file) and 3 unavailable for now
 * (Accumulo, ZooKeeper or a Fluo service unreachable, a time-out), each reported as one line {@code
 * webindex: <message>} on stderr; 4 an unexpected failure, logged with its stack trace.
 */
public final class Main {
  private static final Logger log = LoggerFactory.getLogger(Main.class);

  private Main() {}

  /**
   * Every command, in the order {@code help} lists them. The dependency goes from here to the
   * commands only: the bench, which runs other commands, is given {@link #run(List, Cli)}.
   */
  static List<Command> commands() {
    return List.of(
        new DevCommand(),
        new RecomputeCommand(),
        new FluoInitCommand(),
        new LoadCommand(),
        FluoServiceCommand.oracle(),
        FluoServiceCommand.worker(),
        new CheckCommand(),
        new ReconcileCommand(),
        new DumpCommand(),
        new QueryCommand(),
        new HistoryCommand(),
        new FrontierCommand(),
        new FrontierServeCommand(FrontierServing::open),
        new ServeCommand(),
        new StatusCommand(),
        new BenchWebCommand(),
        new DemoCommand(),
        new GenCommand(),
        new BenchCommand(Main::run),
        new VersionCommand());
  }

  public static void main(String[] args) {
    List<String> list = new ArrayList<>(Arrays.asList(args));
    boolean verbose = takeVerbose(list);
    quietLogs(verbose);
    int status;
    try {
      status = run(list, Cli.standard());
    } catch (Throwable e) { // an Error out of memory, say: never the JVM's 1, which is a verdict
      log.error("unexpected failure", e);
      System.err.println("webindex: unexpected failure: " + e);
      status = FAILED;
    }
    System.exit(status);
  }

  private static final Set<String> VERBOSE = Set.of("-v", "--verbose");

  /** The system property with which log4j reads an operator's own log configuration. */
  static final String LOG_CONFIGURATION_PROPERTY = "log4j.configuration";

  /**
   * Removes {@code -v} / {@code --verbose} from anywhere in {@code args} (before or after the
   * command name, among its options) and says whether there was one. No command has an option of
   * that name; an argument after {@code --} is left alone.
   */
  static boolean takeVerbose(List<String> args) {
    boolean verbose = false;
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (a.equals("--")) {
        break;
      }
      if (VERBOSE.contains(a)) {
        args.remove(i--);
        verbose = true;
      }
    }
    return verbose;
  }

  /**
   * Results go to stdout and the commands' own progress to stderr; webindex's log lines only with
   * {@code -v} (warnings and errors always). Only for a real process: tests keep their levels. An
   * operator's own log configuration ({@code -Dlog4j.configuration}, which {@code bin/webindex}
   * sets from {@code WEBINDEX_LOG_CONF} or {@code <conf dir>/log4j.properties}) keeps its levels;
   * {@code -v} still shows webindex's INFO lines.
   */
  static void quietLogs(boolean verbose) {
    if (verbose) {
      org.apache.log4j.Logger.getLogger("io.webindex").setLevel(org.apache.log4j.Level.INFO);
    } else if (!customLogConfiguration(System.getProperties())) {
      org.apache.log4j.Logger.getLogger("io.webindex").setLevel(org.apache.log4j.Level.WARN);
    }
  }

  /** True when the JVM was given a log configuration of the operator's own. */
  static boolean customLogConfiguration(java.util.Properties system) {
    String c = system.getProperty(LOG_CONFIGURATION_PROPERTY);
    return c != null && !c.isBlank();
  }

  /** Runs one command line and returns its exit status; never exits the JVM. */
  public static int run(List<String> args, Cli ctx) {
    return run(args, ctx, commands());
  }

  /** As {@link #run(List, Cli)} with a given command set (tests). */
  static int run(List<String> args, Cli ctx, List<Command> commands) {
    List<String> list = new ArrayList<>(args);
    takeVerbose(list); // main set the log levels; here it is only taken off the command line
    int status = dispatch(list, ctx, commands);
    ctx.out().flush();
    ctx.err().flush();
    return status;
  }

  private static int dispatch(List<String> args, Cli ctx, List<Command> commands) {
    if (args.isEmpty()) {
      ctx.err().print(usage(commands));
      return USER_ERROR;
    }
    String name = args.get(0);
    List<String> rest = args.subList(1, args.size());
    if (name.equals("help") || name.equals("--help") || name.equals("-h")) {
      return help(rest, ctx, commands);
    }
    if (name.equals("--version")) {
      name = "version";
    }
    Optional<Command> command = find(commands, name);
    if (command.isEmpty()) {
      return userError(
          ctx, "unknown command '" + name + "' (bin/webindex help lists the commands)");
    }
    Command c = command.get();
    if (rest.contains("--help") || rest.contains("-h")) {
      ctx.out().print(c.usage());
      return OK;
    }
    try {
      // Hadoop's generic options (-D k=v, -conf FILE) go to the command's Tools, not to it
      HadoopOptions.Split split = HadoopOptions.split(rest);
      ctx.hadoopOptions(split.options());
      return c.run(split.rest(), ctx);
    } catch (UsageException | ArgsException e) {
      return userError(ctx, e.getMessage() + " (see bin/webindex help " + c.name() + ")");
    } catch (Exception | LinkageError | AssertionError e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      int status = Failures.exitStatus(e);
      if (status == FAILED) {
        log.error("unexpected failure of `{}`", c.name(), e);
        ctx.err().println("webindex: unexpected failure of " + c.name() + ": " + e);
        return FAILED;
      }
      String advice = Failures.advice(status);
      ctx.err()
          .println(
              "webindex: " + Failures.describe(e) + (advice.isEmpty() ? "" : " (" + advice + ")"));
      return status;
    }
  }

  private static int help(List<String> rest, Cli ctx, List<Command> commands) {
    if (rest.isEmpty()) {
      ctx.out().print(usage(commands));
      return OK;
    }
    Optional<Command> c = find(commands, rest.get(0));
    if (c.isEmpty()) {
      return userError(
          ctx, "unknown command '" + rest.get(0) + "' (bin/webindex help lists the commands)");
    }
    ctx.out().print(c.get().usage());
    return OK;
  }

  private static Optional<Command> find(List<Command> commands, String name) {
    return commands.stream().filter(c -> c.name().equals(name)).findFirst();
  }

  /** The text of {@code bin/webindex help}. */
  static String usage() {
    return usage(commands());
  }

  private static String usage(List<Command> commands) {
    StringBuilder sb = new StringBuilder();
    sb.append("usage: bin/webindex <command> [options]\n\ncommands:\n");
    int width = commands.stream().mapToInt(c -> c.name().length()).max().orElse(4);
    for (Command c : commands) {
      sb.append(String.format("  %-" + width + "s %s%n", c.name(), c.summary()));
    }
    sb.append(
        String.format(
            "  %-" + width + "s %s%n", "help", "this list; help <command> for its options"));
    sb.append(
        """

        -v anywhere on the command line (bin/webindex -v recompute ..., or after the command)
        also shows webindex's log lines.
        Commands that read Accumulo take --conf FILE; without it they use
        conf/webindex.properties (in $WEBINDEX_CONF_DIR when set), else the connection file of a
        running `bin/webindex dev` (work/dev/webindex.properties). Commands that run Hadoop
        Tools also take Hadoop's generic options -D key=value and -conf FILE. See docs/cli.md.
        """);
    return sb.toString();
  }

  private static int userError(Cli ctx, String message) {
    PrintWriter err = ctx.err();
    err.println("webindex: " + message);
    return USER_ERROR;
  }
}
