package io.webindex.core.args;

/**
 * A command line the operator has to correct: an unknown option, a missing or malformed value, a
 * stray argument. Its message is one line that names the option; the CLI and the Tools print it and
 * exit with status 2.
 */
public class ArgsException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public ArgsException(String message) {
    super(message);
  }
}
