package io.webindex.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The systemd unit files of a directory, read as systemd reads them: sections, {@code Key=Value}
 * lines (a key may repeat), {@code #} and {@code ;} comments. For the tests of the shipped units
 * and of the release tarball that carries them.
 */
public record SystemdUnits(Map<String, Map<String, List<String>>> byFile) {
  /** Where the units are installed from: the distribution's root, as their ExecStart names it. */
  public static final String INSTALL_ROOT = "/opt/webindex";

  public static SystemdUnits read(Path dir) throws IOException {
    Map<String, Map<String, List<String>>> units = new TreeMap<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".service")).sorted().toList()) {
        units.put(f.getFileName().toString(), parse(Files.readAllLines(f)));
      }
    }
    return new SystemdUnits(units);
  }

  /** Section.Key → values, e.g. {@code Service.ExecStart}. */
  public static Map<String, List<String>> parse(List<String> lines) {
    Map<String, List<String>> values = new LinkedHashMap<>();
    String section = null;
    for (String raw : lines) {
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith("#") || line.startsWith(";")) {
        continue;
      }
      if (line.startsWith("[") && line.endsWith("]")) {
        section = line.substring(1, line.length() - 1);
        continue;
      }
      int eq = line.indexOf('=');
      if (section == null || eq <= 0) {
        throw new IllegalArgumentException("not a unit file line: " + raw);
      }
      values
          .computeIfAbsent(section + "." + line.substring(0, eq).strip(), k -> new ArrayList<>())
          .add(line.substring(eq + 1).strip());
    }
    return values;
  }

  /** The one value of {@code key} in {@code unit}, or an assertion error. */
  public String one(String unit, String key) {
    List<String> v = byFile.get(unit).get(key);
    if (v == null || v.size() != 1) {
      throw new AssertionError(unit + ": expected one " + key + ", got " + v);
    }
    return v.get(0);
  }
}
