package io.webindex.store;

import io.webindex.core.exit.ExitStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Which {@link ExitStatus} a failure of a command or a Tool gives, and its one-line message: the
 * one mapping that {@code bin/webindex} and every {@code hadoop jar} Tool share.
 *
 * <ul>
 *   <li>{@link ExitStatus#TRANSIENT}: a {@link StoreUnavailableException}, or a failure caused by a
 *       connection refused or reset, a time-out, a lost ZooKeeper connection, a name node in safe
 *       mode or on standby, an interrupt (anywhere in the chain of causes);
 *   <li>{@link ExitStatus#USAGE}: a bad argument or configuration ({@link
 *       IllegalArgumentException}, {@link io.webindex.core.args.ArgsException}), Accumulo or a file
 *       refusing what was asked ({@link StoreException}, an {@link IOException}: no such file,
 *       permission denied);
 *   <li>{@link ExitStatus#INTERNAL}: everything else (a bug, an error of the JVM).
 * </ul>
 */
public final class Failures {
  /**
   * Classes (by name, so this layer needs none of their libraries) whose presence in a chain of
   * causes makes a failure transient; subclasses count too.
   */
  private static final Set<String> TRANSIENT_TYPES =
      Set.of(
          "java.net.ConnectException",
          "java.net.SocketTimeoutException",
          "java.net.NoRouteToHostException",
          "java.util.concurrent.TimeoutException",
          "java.io.InterruptedIOException",
          "java.lang.InterruptedException",
          "org.apache.accumulo.core.client.TimedOutException",
          "org.apache.thrift.transport.TTransportException",
          "org.apache.zookeeper.KeeperException$ConnectionLossException",
          "org.apache.zookeeper.KeeperException$SessionExpiredException",
          "org.apache.zookeeper.KeeperException$OperationTimeoutException",
          "org.apache.hadoop.ipc.RetriableException",
          "org.apache.hadoop.ipc.StandbyException",
          "org.apache.hadoop.hdfs.server.namenode.SafeModeException");

  /**
   * Accumulo's refusals (checked exceptions, not {@link StoreException}): the operator's to fix.
   */
  private static final Set<String> REFUSAL_TYPES =
      Set.of(
          "org.apache.accumulo.core.client.AccumuloSecurityException",
          "org.apache.accumulo.core.client.TableNotFoundException",
          "org.apache.accumulo.core.client.TableExistsException",
          "org.apache.accumulo.core.client.NamespaceNotFoundException");

  private Failures() {}

  /** The exit status for {@code e} thrown out of a command or a Tool. */
  public static int exitStatus(Throwable e) {
    if (isTransient(e)) {
      return ExitStatus.TRANSIENT;
    }
    if (e instanceof IllegalArgumentException
        || e instanceof StoreException
        || e instanceof IOException
        || e instanceof UncheckedIOException
        || REFUSAL_TYPES.contains(e.getClass().getName())) {
      return ExitStatus.USAGE;
    }
    return ExitStatus.INTERNAL;
  }

  /** Whether {@code e} or one of its causes says "unavailable for now". */
  public static boolean isTransient(Throwable e) {
    Map<Throwable, Boolean> seen = new IdentityHashMap<>();
    for (Throwable t = e; t != null && seen.put(t, Boolean.TRUE) == null; t = t.getCause()) {
      if (t instanceof StoreUnavailableException
          || t instanceof io.webindex.core.frontier.service.FrontierUnavailableException) {
        return true;
      }
      for (Class<?> c = t.getClass(); c != null; c = c.getSuperclass()) {
        if (TRANSIENT_TYPES.contains(c.getName())) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * The message an operator reads for {@code e}, one line: the exception's own message, said better
   * for the file system's exceptions ({@code no such file: …}, {@code permission denied: …}); for
   * an internal failure its type too.
   */
  public static String describe(Throwable e) {
    if (e instanceof UncheckedIOException u
        && u.getCause() != null
        && u.getCause().toString().equals(u.getMessage())) {
      // new UncheckedIOException(cause) has the cause's toString as its message: say it better
      return describe(u.getCause());
    }
    if (e instanceof NoSuchFileException f) {
      return "no such file: " + f.getFile();
    }
    if (e instanceof AccessDeniedException f) {
      return "permission denied: " + f.getFile();
    }
    if (e instanceof FileSystemException f && f.getReason() != null) {
      return f.getFile() + ": " + f.getReason();
    }
    String m = e.getMessage();
    if (m == null || m.isBlank() || exitStatus(e) == ExitStatus.INTERNAL) {
      m = e.toString();
    }
    return firstLine(m);
  }

  private static String firstLine(String s) {
    int nl = s.indexOf('\n');
    return nl < 0 ? s.strip() : s.substring(0, nl).strip();
  }

  /** What an operator does about a status (for the last line of a failure). */
  public static String advice(int status) {
    return switch (status) {
      case ExitStatus.TRANSIENT -> "unavailable for now: run the same again later";
      case ExitStatus.INTERNAL -> "an unexpected failure: see the log above";
      default -> "";
    };
  }
}
