package io.webindex.cli;

import io.webindex.core.Version;
import java.util.List;

/**
 * {@code version} (also {@code bin/webindex --version}): the webindex version and the Accumulo,
 * Fluo and Hadoop versions it was built against, from {@link Version#current()}, and the git commit
 * it was built from ({@link BuildInfo#current()}).
 */
final class VersionCommand implements Command {
  @Override
  public String name() {
    return "version";
  }

  @Override
  public String summary() {
    return "print the webindex version and the stack versions it was built for";
  }

  @Override
  public String usage() {
    return """
        usage: bin/webindex version      (or bin/webindex --version)

        Prints the webindex version (the one run records, Fluo seeds and Fluo applications
        record), the Accumulo, Fluo and Hadoop versions this build was compiled against, and
        the git commit it was built from ("unknown" for a build outside a git checkout).
        """;
  }

  @Override
  public int run(List<String> args, Cli ctx) {
    if (!args.isEmpty()) {
      throw new UsageException("version takes no arguments");
    }
    ctx.out().print(Version.current().describe() + BuildInfo.current().describe());
    return ExitCodes.OK;
  }
}
