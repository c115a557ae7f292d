package io.webindex.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Map.Entry;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.apache.accumulo.core.client.AccumuloException;
import org.apache.accumulo.core.client.AccumuloSecurityException;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.client.TableNotFoundException;
import org.apache.accumulo.core.client.TableOfflineException;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Value;
import org.apache.accumulo.core.security.Authorizations;
import org.apache.accumulo.core.security.TablePermission;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/**
 * Looks for a secret in bytes, files, ZooKeeper nodes and Accumulo tables, in clear and in the
 * encodings a serialiser may have used on the way: hexadecimal (lower and upper case, as
 * ZooKeeper's and Thrift's debug logs print data) and Base64 (standard and URL-safe, at any
 * alignment inside a longer encoded value). Every method returns its findings as {@code "<where>:
 * <form>"}, empty when the secret is nowhere. Use a secret of letters and digits only, long and
 * distinctive, so that no format escapes it and nothing matches by chance.
 */
public final class SecretScan {
  private static final int CHUNK = 8 << 20;

  private final Map<String, byte[]> forms = new LinkedHashMap<>();
  private final int longest;

  public SecretScan(String secret) {
    if (secret.length() < 12) {
      throw new IllegalArgumentException("use a secret of at least 12 characters");
    }
    byte[] plain = secret.getBytes(StandardCharsets.UTF_8);
    forms.put("in clear", plain);
    String hex = HexFormat.of().formatHex(plain);
    forms.put("hex", ascii(hex));
    forms.put("HEX", ascii(hex.toUpperCase(Locale.ROOT)));
    for (int align = 0; align < 3; align++) {
      byte[] shifted = new byte[align + plain.length];
      System.arraycopy(plain, 0, shifted, align, plain.length);
      String std = Base64.getEncoder().withoutPadding().encodeToString(shifted);
      // the characters of the groups of three bytes that are all the secret's, whatever
      // surrounds it: without the first group when it starts before the secret, and without
      // the last one when it ends after it
      String core = std.substring(align == 0 ? 0 : 4, 4 * ((align + plain.length) / 3));
      forms.put("base64/" + align, ascii(core));
      forms.put("base64url/" + align, ascii(core.replace('+', '-').replace('/', '_')));
    }
    longest = forms.values().stream().mapToInt(b -> b.length).max().orElse(0);
  }

  /** Where {@code data} holds the secret. */
  public List<String> bytes(String where, byte[] data) {
    List<String> found = new ArrayList<>();
    for (Entry<String, byte[]> f : forms.entrySet()) {
      if (indexOf(data, data.length, f.getValue()) >= 0) {
        found.add(where + ": " + f.getKey());
      }
    }
    return found;
  }

  /** Where {@code text} (as UTF-8) holds the secret. */
  public List<String> text(String where, String text) {
    return bytes(where, text.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Every regular file under {@code root} (itself a file or a directory) but those {@code skip}s.
   */
  public List<String> files(Path root, Predicate<Path> skip) {
    List<String> found = new ArrayList<>();
    if (!Files.exists(root)) {
      return found;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : (Iterable<Path>) paths::iterator) {
        if (Files.isRegularFile(p) && !skip.test(p)) {
          found.addAll(file(p));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return found;
  }

  /** One file, read in chunks that overlap by the longest form. */
  public List<String> file(Path file) {
    List<String> found = new ArrayList<>();
    byte[] buf = new byte[CHUNK + longest];
    try (InputStream in = Files.newInputStream(file)) {
      int kept = 0;
      while (true) {
        int n = in.readNBytes(buf, kept, CHUNK);
        int len = kept + n;
        for (Entry<String, byte[]> f : forms.entrySet()) {
          String finding = file + ": " + f.getKey();
          if (!found.contains(finding) && indexOf(buf, len, f.getValue()) >= 0) {
            found.add(finding);
          }
        }
        if (n < CHUNK) {
          return found;
        }
        kept = Math.min(longest, len);
        System.arraycopy(buf, len - kept, buf, 0, kept);
      }
    } catch (NoSuchFileException e) {
      return found; // deleted meanwhile
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** What a walk of a whole ZooKeeper tree found. */
  public record ZooKeeperWalk(int nodes, List<String> findings, List<String> unreadable) {}

  /**
   * Reads every node of the ZooKeeper at {@code connect} (host:port[,…], no chroot), as a client
   * with the digest credentials {@code digestAuth} ({@code user:password}, or null for none, the
   * view of any client). Nodes whose ACL refuses that client are listed as unreadable, not
   * searched.
   */
  public ZooKeeperWalk zooKeeper(String connect, String digestAuth) {
    CountDownLatch connected = new CountDownLatch(1);
    Watcher watcher =
        (WatchedEvent e) -> {
          if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
            connected.countDown();
          }
        };
    try {
      ZooKeeper zk = new ZooKeeper(connect, 30_000, watcher);
      try {
        if (!connected.await(30, TimeUnit.SECONDS)) {
          throw new IllegalStateException("cannot connect to ZooKeeper " + connect);
        }
        if (digestAuth != null) {
          zk.addAuthInfo("digest", digestAuth.getBytes(StandardCharsets.UTF_8));
        }
        List<String> findings = new ArrayList<>();
        List<String> unreadable = new ArrayList<>();
        int nodes = walk(zk, "/", findings, unreadable);
        return new ZooKeeperWalk(nodes, findings, unreadable);
      } finally {
        zk.close();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (KeeperException e) {
      throw new IllegalStateException("walking ZooKeeper " + connect, e);
    }
  }

  private int walk(ZooKeeper zk, String path, List<String> findings, List<String> unreadable)
      throws KeeperException, InterruptedException {
    List<String> children;
    try {
      byte[] data = zk.getData(path, false, null);
      if (data != null) {
        findings.addAll(bytes("zookeeper " + path, data));
      }
      children = zk.getChildren(path, false);
    } catch (KeeperException.NoAuthException e) {
      unreadable.add(path);
      return 1;
    } catch (KeeperException.NoNodeException e) {
      return 0; // deleted meanwhile
    }
    int n = 1;
    for (String c : children) {
      n += walk(zk, path.equals("/") ? "/" + c : path + "/" + c, findings, unreadable);
    }
    return n;
  }

  /**
   * Every cell (row, family, qualifier, visibility, value) of every table of the instance, read by
   * {@code admin}, a user with {@code System.ALTER_TABLE} (root) who grants itself {@code READ} on
   * tables it cannot read. Offline system tables are skipped.
   */
  public List<String> tables(Connector admin) {
    List<String> found = new ArrayList<>();
    String me = admin.whoami();
    try {
      for (String table : admin.tableOperations().list()) {
        if (!admin.securityOperations().hasTablePermission(me, table, TablePermission.READ)) {
          admin.securityOperations().grantTablePermission(me, table, TablePermission.READ);
        }
        found.addAll(table(admin, table));
      }
    } catch (AccumuloException | AccumuloSecurityException e) {
      throw new IllegalStateException("listing or granting tables", e);
    }
    return found;
  }

  private List<String> table(Connector conn, String table) {
    List<String> found = new ArrayList<>();
    Scanner scanner;
    try {
      scanner = conn.createScanner(table, Authorizations.EMPTY);
    } catch (TableNotFoundException e) {
      return found; // dropped meanwhile
    } catch (TableOfflineException e) {
      if (table.startsWith("accumulo.")) {
        return found; // accumulo.replication is offline unless replication is used
      }
      throw e;
    }
    try {
      for (Entry<Key, Value> e : scanner) {
        Key k = e.getKey();
        byte[] cell =
            concat(
                k.getRowData().toArray(),
                k.getColumnFamilyData().toArray(),
                k.getColumnQualifierData().toArray(),
                k.getColumnVisibilityData().toArray(),
                e.getValue().get());
        for (String f : bytes("table " + table + " row " + k.getRow(), cell)) {
          if (!found.contains(f)) {
            found.add(f);
          }
        }
      }
    } catch (TableOfflineException e) {
      if (!table.startsWith("accumulo.")) {
        throw e;
      }
    } finally {
      scanner.close();
    }
    return found;
  }

  private static byte[] concat(byte[]... parts) {
    int n = Arrays.stream(parts).mapToInt(p -> p.length + 1).sum();
    byte[] out = new byte[n];
    int i = 0;
    for (byte[] p : parts) {
      System.arraycopy(p, 0, out, i, p.length);
      i += p.length + 1; // a zero between the parts: a secret spanning two is not one
    }
    return out;
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  private static int indexOf(byte[] data, int len, byte[] pattern) {
    if (pattern.length == 0) {
      return 0;
    }
    byte first = pattern[0];
    int last = len - pattern.length;
    outer:
    for (int i = 0; i <= last; i++) {
      if (data[i] != first) {
        continue;
      }
      for (int j = 1; j < pattern.length; j++) {
        if (data[i + j] != pattern[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
