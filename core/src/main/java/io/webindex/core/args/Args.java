package io.webindex.core.args;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The parsed arguments of one command of the CLI or one Tool (after Hadoop's {@code ToolRunner}
 * took its generic {@code -D}/{@code -conf} options): options {@code --name VALUE} or {@code
 * --name=VALUE}, flags {@code --name}, and positional arguments; {@code --} ends the options.
 * {@code -h} and {@code --help} ask for help: when they are given, nothing else is checked, so that
 * help is always one option away. Otherwise an unknown option, a flag with a value, an option
 * without one (or with an empty one) and an option given twice are {@link ArgsException}s whose
 * message names the option.
 */
public final class Args {
  private static final Args HELP = new Args(Map.of(), List.of(), true);

  private final Map<String, List<String>> values;
  private final List<String> positionals;
  private final boolean help;

  private Args(Map<String, List<String>> values, List<String> positionals, boolean help) {
    this.values = values;
    this.positionals = positionals;
    this.help = help;
  }

  /**
   * Parses {@code raw}.
   *
   * @param valueOptions names (without {@code --}) of options that take a value
   * @param flags names of options that take none
   * @throws ArgsException for a command line that cannot be read (unless help was asked for)
   */
  public static Args parse(List<String> raw, Set<String> valueOptions, Set<String> flags) {
    return parse(raw, valueOptions, flags, Set.of());
  }

  /**
   * Parses {@code raw}, where the options {@code repeatable} (also among {@code valueOptions}) may
   * be given more than once: {@link #values} has them all, in order.
   */
  public static Args parse(
      List<String> raw, Set<String> valueOptions, Set<String> flags, Set<String> repeatable) {
    Map<String, List<String>> values = new LinkedHashMap<>();
    List<String> positionals = new ArrayList<>();
    boolean help = false;
    String error = null;
    for (int i = 0; i < raw.size(); i++) {
      String a = raw.get(i);
      if (a.equals("--")) {
        positionals.addAll(raw.subList(i + 1, raw.size()));
        break;
      }
      if (a.equals("-h") || a.equals("--help")) {
        help = true;
        continue;
      }
      if (!a.startsWith("-") || a.equals("-")) {
        positionals.add(a);
        continue;
      }
      String problem = null;
      if (!a.startsWith("--") || a.length() == 2) {
        problem = "unknown option " + a;
      } else {
        int eq = a.indexOf('=');
        String name = eq < 0 ? a.substring(2) : a.substring(2, eq);
        String value = "";
        if (valueOptions.contains(name)) {
          if (eq >= 0) {
            value = a.substring(eq + 1);
          } else if (i + 1 < raw.size()) {
            value = raw.get(++i);
          }
          if (value.isEmpty()) {
            problem = "--" + name + " needs a value";
          }
        } else if (flags.contains(name)) {
          if (eq >= 0) {
            problem = "--" + name + " takes no value";
          }
        } else {
          problem = "unknown option --" + name;
        }
        if (problem == null) {
          List<String> given = values.computeIfAbsent(name, n -> new ArrayList<>());
          if (!given.isEmpty() && !repeatable.contains(name)) {
            problem = "--" + name + " given twice";
          }
          given.add(value);
        }
      }
      if (problem != null && error == null) {
        error = problem;
      }
    }
    if (help) {
      return HELP;
    }
    if (error != null) {
      throw new ArgsException(error);
    }
    return new Args(
        Collections.unmodifiableMap(values), Collections.unmodifiableList(positionals), false);
  }

  /** {@link #parse(List, Set, Set)} of a Tool's {@code String[]}. */
  public static Args parse(String[] raw, Set<String> valueOptions, Set<String> flags) {
    return parse(Arrays.asList(raw), valueOptions, flags);
  }

  /** Whether {@code -h} or {@code --help} was given (then nothing else was read). */
  public boolean helpRequested() {
    return help;
  }

  /** Whether the option or flag {@code name} was given. */
  public boolean has(String name) {
    return values.containsKey(name);
  }

  /** The value of option {@code name} (of a repeatable one: the last). */
  public Optional<String> value(String name) {
    List<String> given = values.getOrDefault(name, List.of());
    return given.isEmpty() ? Optional.empty() : Optional.of(given.get(given.size() - 1));
  }

  /** Every value of a repeatable option, in the order given (empty when absent). */
  public List<String> values(String name) {
    return Collections.unmodifiableList(values.getOrDefault(name, List.of()));
  }

  /** The value of a required option. */
  public String required(String name) {
    return value(name).orElseThrow(() -> new ArgsException("--" + name + " is required"));
  }

  /** The value of a required option, {@code what} saying in the message what it names. */
  public String required(String name, String what) {
    return value(name)
        .orElseThrow(() -> new ArgsException("--" + name + " is required (" + what + ")"));
  }

  /** An integer option, or {@code dflt} when absent. */
  public int intValue(String name, int dflt) {
    long v = longValue(name, dflt);
    if (v != (int) v) {
      throw new ArgsException("--" + name + " is too large: " + value(name).orElse(""));
    }
    return (int) v;
  }

  /** A whole-number option, or {@code dflt} when absent. */
  public long longValue(String name, long dflt) {
    String v = value(name).orElse(null);
    if (v == null) {
      return dflt;
    }
    try {
      return Long.parseLong(v.strip());
    } catch (NumberFormatException e) {
      throw new ArgsException("--" + name + " must be a whole number: " + v);
    }
  }

  /** A whole-number option that cannot be negative (a count, a rate, seconds), or {@code dflt}. */
  public long nonNegative(String name, long dflt) {
    long n = longValue(name, dflt);
    if (n < 0) {
      throw new ArgsException(
          "--" + name + " must be a whole number >= 0: " + value(name).orElse(""));
    }
    return n;
  }

  /** A whole-number option in {@code [0, Integer.MAX_VALUE]} (a count, a rate), or {@code dflt}. */
  public int nonNegativeInt(String name, int dflt) {
    long n = nonNegative(name, dflt);
    if (n != (int) n) {
      throw new ArgsException("--" + name + " is too large: " + value(name).orElse(""));
    }
    return (int) n;
  }

  public List<String> positionals() {
    return positionals;
  }

  /**
   * Fails unless there are exactly {@code n} positional arguments, the missing ones {@code what}.
   */
  public List<String> expectPositionals(int n, String what) {
    if (positionals.size() < n) {
      throw new ArgsException("missing " + what);
    }
    if (positionals.size() > n) {
      throw new ArgsException("unexpected argument '" + positionals.get(n) + "'");
    }
    return positionals;
  }

  /** Fails if there is any positional argument: for commands that take options only. */
  public Args noPositionals() {
    expectPositionals(0, "");
    return this;
  }
}
