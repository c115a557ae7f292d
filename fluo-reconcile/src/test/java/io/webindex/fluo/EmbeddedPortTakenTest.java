package io.webindex.fluo;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import org.apache.fluo.core.shaded.thrift.transport.TNonblockingServerSocket;
import org.apache.fluo.core.shaded.thrift.transport.TTransportException;
import org.junit.jupiter.api.Test;

/**
 * The failure an embedded start retries: the server socket Fluo's oracle opens (its own shaded
 * Thrift class, as {@code OracleServer} opens it) on a port another socket holds, wrapped as {@code
 * MiniFluoImpl} wraps it; any other failure is not retried.
 */
class EmbeddedPortTakenTest {
  @Test
  void aPortAnotherSocketHoldsIsRecognised() throws Exception {
    try (ServerSocket holder = new ServerSocket(0)) {
      TTransportException bind =
          assertThrows(
              TTransportException.class,
              () -> new TNonblockingServerSocket(holder.getLocalPort()).close());
      assertTrue(WebindexApp.portTaken(new RuntimeException(bind)), bind.toString());
    }
    assertFalse(WebindexApp.portTaken(new RuntimeException("no oracle")));
    assertFalse(WebindexApp.portTaken(new IllegalStateException(new NullPointerException())));
  }
}
