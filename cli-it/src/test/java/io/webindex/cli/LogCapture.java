package io.webindex.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.log4j.Appender;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.FileAppender;
import org.apache.log4j.Level;
import org.apache.log4j.LogManager;
import org.apache.log4j.Logger;
import org.apache.log4j.PatternLayout;
import org.apache.log4j.Priority;

/**
 * Every log event of this JVM at every level, TRACE included, into one file, while it is open
 * (reload4j, the one SLF4J binding): the root logger goes to ALL, every other logger inherits it,
 * and the appenders already configured keep their output as before by a WARN threshold at least.
 * {@link #close()} puts the levels and thresholds back.
 */
final class LogCapture implements AutoCloseable {
  private final FileAppender file;
  private final Map<Logger, Level> levels = new HashMap<>();
  private final Map<AppenderSkeleton, Priority> thresholds = new HashMap<>();

  LogCapture(Path logFile) {
    try {
      file =
          new FileAppender(
              new PatternLayout("%d{HH:mm:ss,SSS} %-5p [%t] %c - %m%n"),
              logFile.toString(),
              false,
              true,
              64 << 10);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    file.setName("log-capture");
    file.setThreshold(Level.ALL);
    Logger root = LogManager.getRootLogger();
    List<Logger> loggers = new ArrayList<>();
    loggers.add(root);
    Collections.list(LogManager.getCurrentLoggers()).forEach(l -> loggers.add((Logger) l));
    for (Logger l : loggers) {
      levels.put(l, l.getLevel());
      for (Object a : Collections.list(l.getAllAppenders())) {
        if (a instanceof AppenderSkeleton s && !thresholds.containsKey(s)) {
          Priority t = s.getThreshold();
          thresholds.put(s, t);
          if (t == null || !t.isGreaterOrEqual(Level.WARN)) {
            s.setThreshold(Level.WARN);
          }
        }
      }
      l.setLevel(l == root ? Level.ALL : null);
    }
    root.addAppender(file);
  }

  @Override
  public void close() {
    Logger root = LogManager.getRootLogger();
    root.removeAppender((Appender) file);
    levels.forEach(Logger::setLevel);
    thresholds.forEach(AppenderSkeleton::setThreshold);
    file.close();
  }
}
