package io.webindex.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.webindex.core.args.ArgsException;
import io.webindex.core.exit.ExitStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.concurrent.TimeoutException;
import org.apache.accumulo.core.client.AccumuloException;
import org.apache.accumulo.core.client.TimedOutException;
import org.apache.thrift.transport.TTransportException;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.Test;

class FailuresTest {
  /** A real "connection refused": a port that was bound, then closed. */
  private static ConnectException refused() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 2000);
    } catch (ConnectException e) {
      return e;
    }
    throw new AssertionError("port " + port + " accepted a connection");
  }

  @Test
  void unavailableIsTransientWhereverItIsInTheChain() throws Exception {
    ConnectException refused = refused();
    Throwable[] transients = {
      new StoreUnavailableException("the live side did not settle"),
      new io.webindex.core.frontier.service.FrontierUnavailableException(
          "cannot create the frontier's table webindex_frontier_ops", null),
      refused,
      new StoreException("writing to table 't' failed", new AccumuloException(refused)),
      new UncheckedIOException(new SocketTimeoutException("read timed out")),
      new RuntimeException(new TimeoutException()),
      new StoreException("scan", new TimedOutException("tserver:9997")),
      new AccumuloException(new TTransportException("Failed to connect to a server")),
      new StoreException("zk", KeeperException.create(KeeperException.Code.CONNECTIONLOSS)),
      new IllegalStateException(KeeperException.create(KeeperException.Code.SESSIONEXPIRED)),
      new InterruptedException(),
    };
    for (Throwable t : transients) {
      assertEquals(ExitStatus.TRANSIENT, Failures.exitStatus(t), t.toString());
    }
  }

  @Test
  void whatTheOperatorFixesIsUsage() {
    Throwable[] usage = {
      new ArgsException("unknown option --bogus"),
      new IllegalArgumentException("webindex.table.prefix must be letters"),
      new StoreException("no table 'x' in Accumulo"),
      new StoreException("cannot connect", new AccumuloException("bad password")),
      new NoSuchFileException("/etc/webindex/webindex.properties"),
      new UncheckedIOException(new AccessDeniedException("/var/webindex")),
      new IOException("Mkdirs failed to create /x"),
      new org.apache.accumulo.core.client.TableNotFoundException(null, "t", "no such table"),
      new org.apache.accumulo.core.client.AccumuloSecurityException(
          "webindex",
          org.apache.accumulo.core.client.impl.thrift.SecurityErrorCode.PERMISSION_DENIED),
    };
    for (Throwable t : usage) {
      assertEquals(ExitStatus.USAGE, Failures.exitStatus(t), t.toString());
    }
  }

  @Test
  void anythingElseIsInternalNeverTheVerdict() {
    Throwable[] internal = {
      new NullPointerException(),
      new IllegalStateException("a bug"),
      new AssertionError("broken invariant"),
      new OutOfMemoryError("Java heap space"),
      new NoClassDefFoundError("org/apache/fluo/api/Foo"),
    };
    for (Throwable t : internal) {
      assertEquals(ExitStatus.INTERNAL, Failures.exitStatus(t), t.toString());
    }
  }

  @Test
  void describeIsOneLine() {
    assertEquals(
        "no such file: /etc/w.properties",
        Failures.describe(new UncheckedIOException(new NoSuchFileException("/etc/w.properties"))));
    assertEquals(
        "permission denied: /var/w", Failures.describe(new AccessDeniedException("/var/w")));
    assertEquals(
        "java.lang.IllegalStateException: a bug",
        Failures.describe(new IllegalStateException("a bug\n\tat somewhere")));
    assertEquals("no table 'x'", Failures.describe(new StoreException("no table 'x'\nmore")));
  }
}
