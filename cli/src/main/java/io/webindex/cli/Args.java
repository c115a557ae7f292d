package io.webindex.cli;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The parsed arguments of one command: options {@code --name VALUE} or {@code --name=VALUE}, flags
 * {@code --name}, and positional arguments; {@code --} ends the options. {@code -h} and {@code
 * --help} are always accepted as the flag {@code help}. Unknown, repeated or incomplete options are
 * {@link UsageException}s.
 */
public final class Args {
  public static final String HELP = "help";

  private final Map<String, String> values;
  private final List<String> positionals;

  private Args(Map<String, String> values, List<String> positionals) {
    this.values = values;
    this.positionals = positionals;
  }

  /**
   * Parses {@code raw}.
   *
   * @param valueOptions names (without {@code --}) of options that take a value
   * @param flags names of options that take none
   */
  public static Args parse(List<String> raw, Set<String> valueOptions, Set<String> flags) {
    Map<String, String> values = new LinkedHashMap<>();
    List<String> positionals = new ArrayList<>();
    for (int i = 0; i < raw.size(); i++) {
      String a = raw.get(i);
      if (a.equals("--")) {
        positionals.addAll(raw.subList(i + 1, raw.size()));
        break;
      }
      if (a.equals("-h") || a.equals("--help")) {
        values.put(HELP, "");
        continue;
      }
      if (!a.startsWith("-") || a.equals("-")) {
        positionals.add(a);
        continue;
      }
      if (!a.startsWith("--") || a.length() == 2) {
        throw new UsageException("unknown option " + a);
      }
      int eq = a.indexOf('=');
      String name = eq < 0 ? a.substring(2) : a.substring(2, eq);
      String value;
      if (valueOptions.contains(name)) {
        if (eq >= 0) {
          value = a.substring(eq + 1);
        } else if (i + 1 < raw.size()) {
          value = raw.get(++i);
        } else {
          throw new UsageException("--" + name + " needs a value");
        }
        if (value.isEmpty()) {
          throw new UsageException("--" + name + " needs a value");
        }
      } else if (flags.contains(name)) {
        if (eq >= 0) {
          throw new UsageException("--" + name + " takes no value");
        }
        value = "";
      } else {
        throw new UsageException("unknown option --" + name);
      }
      if (values.put(name, value) != null) {
        throw new UsageException("--" + name + " given twice");
      }
    }
    return new Args(values, Collections.unmodifiableList(positionals));
  }

  public boolean has(String name) {
    return values.containsKey(name);
  }

  public boolean helpRequested() {
    return has(HELP);
  }

  public Optional<String> value(String name) {
    return Optional.ofNullable(values.get(name));
  }

  /** The value of a required option. */
  public String required(String name, String what) {
    String v = values.get(name);
    if (v == null) {
      throw new UsageException("--" + name + " is required (" + what + ")");
    }
    return v;
  }

  /** An integer option, or {@code dflt} when absent. */
  public int intValue(String name, int dflt) {
    String v = values.get(name);
    if (v == null) {
      return dflt;
    }
    try {
      return Integer.parseInt(v.strip());
    } catch (NumberFormatException e) {
      throw new UsageException("--" + name + " must be a whole number: " + v);
    }
  }

  public List<String> positionals() {
    return positionals;
  }

  /** Fails unless there are exactly {@code n} positional arguments. */
  public List<String> expectPositionals(int n, String what) {
    if (positionals.size() < n) {
      throw new UsageException("missing " + what);
    }
    if (positionals.size() > n) {
      throw new UsageException("unexpected argument '" + positionals.get(n) + "'");
    }
    return positionals;
  }
}
