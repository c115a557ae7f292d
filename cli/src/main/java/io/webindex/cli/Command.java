package io.webindex.cli;

import io.webindex.core.args.Args;
import java.util.List;

/**
 * One {@code bin/webindex} subcommand. Implementations parse their own arguments (with {@link
 * Args}), write results to {@link Cli#out()} and throw for failures: {@link UsageException}, {@code
 * IllegalArgumentException}, {@code StoreException} and I/O errors become one {@code webindex:
 * <message>} line and exit status {@link ExitCodes#USER_ERROR}.
 */
public interface Command {
  /** The word that selects the command: {@code bin/webindex <name>}. */
  String name();

  /** One line for the command list of {@code bin/webindex help}. */
  String summary();

  /** The full help text of {@code bin/webindex help <name>}: synopsis, description, options. */
  String usage();

  /**
   * Runs the command.
   *
   * @param args the arguments after the command name
   * @return the exit status (0 = success)
   */
  int run(List<String> args, Cli ctx) throws Exception;

  /**
   * Runs one whole command line in this process as {@code bin/webindex} does and returns its exit
   * status, never throwing for a failed command. Given to a command that drives others (the bench)
   * by the dispatcher, so that no command depends on it.
   */
  @FunctionalInterface
  interface Dispatcher {
    int run(List<String> args, Cli ctx);
  }
}
