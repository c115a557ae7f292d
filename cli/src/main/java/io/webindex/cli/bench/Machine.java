package io.webindex.cli.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The machine the bench ran on and the memory it used: this JVM's peak heap and RSS, and the peak
 * RSS of every process it started (read from {@code /proc}; on other systems cores and Java only).
 */
final class Machine {
  private Machine() {}

  /** Peak heap and RSS of this JVM, and the peak RSS of every process it started. */
  static Map<String, Object> memory(long peakHeap, long peakAfterGc) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("thisJvmPeakHeapBytes", peakHeap);
    m.put("thisJvmPeakHeapAfterGcBytes", peakAfterGc);
    m.put("thisJvmMaxHeapBytes", Runtime.getRuntime().maxMemory());
    peakRss(ProcessHandle.current().pid()).ifPresent(r -> m.put("thisJvmPeakRssBytes", r));
    Map<String, Long> children = new TreeMap<>();
    ProcessHandle.current()
        .descendants()
        .forEach(
            p ->
                peakRss(p.pid())
                    .ifPresent(r -> children.put(processName(p) + " (pid " + p.pid() + ")", r)));
    m.put("childPeakRssBytes", children);
    return m;
  }

  private static Optional<Long> peakRss(long pid) {
    try {
      for (String l : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
        if (l.startsWith("VmHWM:")) {
          return Optional.of(Long.parseLong(l.replaceAll("[^0-9]", "")) * 1024);
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux, or the process ended
    }
    return Optional.empty();
  }

  /** What a child process runs: its main class's simple name and the service it is given. */
  private static String processName(ProcessHandle p) {
    try {
      String[] args =
          Files.readString(Path.of("/proc", Long.toString(p.pid()), "cmdline")).split("\0");
      for (int i = 0; i < args.length; i++) {
        if (args[i].matches("(org|io)\\.[a-zA-Z0-9_.]+\\.[A-Z][A-Za-z0-9_]*")) {
          String main = args[i].substring(args[i].lastIndexOf('.') + 1);
          return i + 1 < args.length && args[i + 1].matches("[a-z]+")
              ? main + " " + args[i + 1]
              : main;
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux, or the process ended
    }
    return p.info().command().map(c -> Path.of(c).getFileName().toString()).orElse("process");
  }

  /** Cores, Java, and on Linux the CPU model and the memory. */
  static Map<String, Object> describe() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("cores", Runtime.getRuntime().availableProcessors());
    m.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
    try {
      for (String l : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (l.startsWith("model name")) {
          m.put("cpu", l.substring(l.indexOf(':') + 1).strip());
          break;
        }
      }
      for (String l : Files.readAllLines(Path.of("/proc/meminfo"))) {
        if (l.startsWith("MemTotal:")) {
          m.put("memoryBytes", Long.parseLong(l.replaceAll("[^0-9]", "")) * 1024);
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux: cores and Java only
    }
    return m;
  }
}
