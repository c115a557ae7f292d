package io.webindex.fluo;

import io.webindex.core.config.WebindexConfig;
import io.webindex.store.JobSecrets;
import io.webindex.store.ToolConfig;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;

/**
 * The arguments of the Fluo stage tools ({@code --name value} options and {@code --flag}s, after
 * {@code ToolRunner} took the generic {@code -D}/{@code -conf} ones) and their webindex
 * configuration: the {@code --webindex-conf} file, overridden by {@code webindex.*} Hadoop
 * properties, of which secrets are refused.
 */
final class ToolArgs {
  static final String CONF = "webindex-conf";

  private final Map<String, String> values;
  private final Set<String> flags;
  final boolean help;

  private ToolArgs(Map<String, String> values, Set<String> flags, boolean help) {
    this.values = values;
    this.flags = flags;
    this.help = help;
  }

  /**
   * @throws IllegalArgumentException for an unknown option, a missing value or a positional
   */
  static ToolArgs parse(String[] args, Set<String> valueOptions, Set<String> flagOptions) {
    Map<String, String> values = new HashMap<>();
    Set<String> flags = new HashSet<>();
    boolean help = false;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("-h") || a.equals("--help")) {
        help = true;
        continue;
      }
      if (!a.startsWith("--")) {
        throw new IllegalArgumentException("unexpected argument " + a);
      }
      String name = a.substring(2);
      if (valueOptions.contains(name) || name.equals(CONF)) {
        if (i + 1 >= args.length) {
          throw new IllegalArgumentException(a + " needs a value");
        }
        values.put(name, args[++i]);
      } else if (flagOptions.contains(name)) {
        flags.add(name);
      } else {
        throw new IllegalArgumentException("unknown option " + a);
      }
    }
    return new ToolArgs(values, flags, help);
  }

  Optional<String> value(String name) {
    return Optional.ofNullable(values.get(name));
  }

  String required(String name) {
    String v = values.get(name);
    if (v == null || v.isBlank()) {
      throw new IllegalArgumentException("--" + name + " is required");
    }
    return v;
  }

  boolean has(String flag) {
    return flags.contains(flag);
  }

  long longValue(String name, long dflt) {
    String v = values.get(name);
    if (v == null) {
      return dflt;
    }
    try {
      long n = Long.parseLong(v.strip());
      if (n < 0) {
        throw new IllegalArgumentException("--" + name + " takes a number >= 0: " + v);
      }
      return n;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + name + " takes a number: " + v);
    }
  }

  /** The webindex configuration: the file, overridden by {@code webindex.*} Hadoop properties. */
  WebindexConfig config(Configuration conf) {
    JobSecrets.refuse(conf);
    return ToolConfig.load(conf, values.get(CONF), "webindex.mr.");
  }
}
