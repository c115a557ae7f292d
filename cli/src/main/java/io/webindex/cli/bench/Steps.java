package io.webindex.cli.bench;

import io.webindex.check.CheckTool;
import io.webindex.cli.Cli;
import io.webindex.cli.Command;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The commands an operator runs, run by the bench in this process through the dispatcher, their
 * output kept out of the way. A command that fails fails the bench ({@link StepFailed}, with its
 * output); an inconsistent {@code check} does not: its status is the stage's verdict.
 */
final class Steps {
  private final Command.Dispatcher dispatcher;
  private final Cli ctx;

  Steps(Command.Dispatcher dispatcher, Cli ctx) {
    this.dispatcher = dispatcher;
    this.ctx = ctx;
  }

  /** Runs one command; returns its exit status. */
  int status(String... args) throws StepFailed {
    return run(args).status();
  }

  /** Runs one command; returns its standard output. */
  String output(String... args) throws StepFailed {
    return run(args).out();
  }

  private record Ran(int status, String out) {}

  private Ran run(String... args) throws StepFailed {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = dispatcher.run(List.of(args), new Cli(ctx.home(), out, err));
    String o = out.toString(StandardCharsets.UTF_8);
    if (status != 0 && !(args[0].equals("check") && status == CheckTool.INCONSISTENT)) {
      throw new StepFailed(
          String.join(" ", args).replaceAll("--conf \\S+ ", "")
              + " failed with status "
              + status
              + ":\n"
              + o
              + err.toString(StandardCharsets.UTF_8));
    }
    return new Ran(status, o);
  }
}
