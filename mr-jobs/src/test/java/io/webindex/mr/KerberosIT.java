package io.webindex.mr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.check.CheckTool;
import io.webindex.core.config.WebindexConfig;
import io.webindex.core.schema.DumpFormat;
import io.webindex.core.schema.LocalBatches;
import io.webindex.store.AccumuloConnections;
import io.webindex.store.KerberosLogin;
import io.webindex.store.StoreException;
import io.webindex.store.mapreduce.TaskAccumulo;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.client.security.tokens.KerberosToken;
import org.apache.accumulo.core.conf.Property;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Value;
import org.apache.accumulo.core.security.Authorizations;
import org.apache.accumulo.core.security.SystemPermission;
import org.apache.accumulo.minicluster.MemoryUnit;
import org.apache.accumulo.minicluster.ServerType;
import org.apache.accumulo.minicluster.impl.MiniAccumuloClusterImpl;
import org.apache.accumulo.minicluster.impl.MiniAccumuloConfigImpl;
import org.apache.accumulo.server.security.handler.KerberosAuthenticator;
import org.apache.accumulo.server.security.handler.KerberosAuthorizor;
import org.apache.accumulo.server.security.handler.KerberosPermissionHandler;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.minikdc.MiniKdc;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A secure cluster: a Kerberos KDC (Hadoop's MiniKdc) and a MiniAccumuloCluster with SASL, whose
 * servers log in from a keytab and which knows users only as Kerberos principals. webindex logs in
 * from its own keytab, connects over SASL, recomputes the worked example with the local job runner
 * (bulk import as the principal), and runs the MapReduce check, whose tasks connect with the
 * delegation token the job's credentials carry. Not covered here: a job on YARN (the local runner's
 * tasks run in this process, see {@link #startKdcAndAccumulo} for the shuffle) and the Fluo stages
 * (Fluo 1.2 connects with a password only).
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class KerberosIT {
  @TempDir static Path tmp;

  static MiniKdc kdc;
  static MiniAccumuloClusterImpl mac;
  static String realm;
  static Path rootKeytab;
  static Path userKeytab;
  static String rootPrincipal;
  static String userPrincipal;

  @BeforeAll
  static void startKdcAndAccumulo() throws Exception {
    // The local job runner's shuffle reads map output through Hadoop's SecureIOUtils, which decides
    // once per JVM, when first loaded, whether to check file owners: under Kerberos that needs
    // Hadoop's native library (libhadoop), which this machine does not have (on a cluster, the
    // node managers of a secure YARN have it). Loaded now, before any Kerberos login, it keeps the
    // plain path, as in every other test of this JVM: the shuffle's owner checks are not tested.
    Class.forName("org.apache.hadoop.io.SecureIOUtils");
    Properties kdcConf = MiniKdc.createConf();
    kdc = new MiniKdc(kdcConf, Files.createDirectories(tmp.resolve("kdc")).toFile());
    kdc.start();
    realm = kdc.getRealm();
    String host = InetAddress.getLocalHost().getCanonicalHostName().toLowerCase();
    Path serverKeytab = tmp.resolve("accumulo.keytab");
    kdc.createPrincipal(serverKeytab.toFile(), "accumulo/" + host);
    rootKeytab = tmp.resolve("root.keytab");
    kdc.createPrincipal(rootKeytab.toFile(), "root");
    userKeytab = tmp.resolve("webindex.keytab");
    kdc.createPrincipal(userKeytab.toFile(), "webindex");
    rootPrincipal = "root@" + realm;
    userPrincipal = "webindex@" + realm;

    MiniAccumuloConfigImpl cfg =
        new MiniAccumuloConfigImpl(tmp.resolve("mac").toFile(), "unused-with-kerberos");
    cfg.setNumTservers(1);
    cfg.setMemory(ServerType.TABLET_SERVER, 512, MemoryUnit.MEGABYTE);
    cfg.setProperty(Property.INSTANCE_RPC_SASL_ENABLED, "true");
    cfg.setProperty(Property.GENERAL_KERBEROS_KEYTAB, serverKeytab.toString());
    cfg.setProperty(Property.GENERAL_KERBEROS_PRINCIPAL, "accumulo/" + host + "@" + realm);
    cfg.setProperty(
        Property.INSTANCE_SECURITY_AUTHENTICATOR, KerberosAuthenticator.class.getName());
    cfg.setProperty(Property.INSTANCE_SECURITY_AUTHORIZOR, KerberosAuthorizor.class.getName());
    cfg.setProperty(
        Property.INSTANCE_SECURITY_PERMISSION_HANDLER, KerberosPermissionHandler.class.getName());
    cfg.setProperty(Property.TRACE_USER, "accumulo/" + host + "@" + realm);
    cfg.setProperty(Property.TRACE_TOKEN_TYPE, KerberosToken.CLASS_NAME);
    cfg.setSystemProperties(
        Map.of(MiniKdc.JAVA_SECURITY_KRB5_CONF, kdc.getKrb5conf().getAbsolutePath()));
    cfg.setRootUserName(rootPrincipal);
    mac = new MiniAccumuloClusterImpl(cfg);
    Configuration coreSite = new Configuration(false);
    coreSite.set(KerberosLogin.HADOOP_AUTHENTICATION, "kerberos");
    try (OutputStream out =
        Files.newOutputStream(mac.getConfig().getConfDir().toPath().resolve("core-site.xml"))) {
      coreSite.writeXml(out);
    }
    mac.start();
  }

  @AfterAll
  static void stop() throws Exception {
    try {
      if (mac != null) {
        mac.stop();
      }
    } finally {
      if (kdc != null) {
        kdc.stop();
      }
      // the next test class in this JVM runs without Kerberos
      KerberosLogin.resetForTests();
      UserGroupInformation.reset();
    }
  }

  /** The webindex configuration of this cluster: SASL, the principal and its keytab. */
  static Path writeConf(Path dir, String prefix, Path keytab) throws IOException {
    List<String> lines =
        List.of(
            "webindex.accumulo.instance=" + mac.getInstanceName(),
            "webindex.accumulo.zookeepers=" + mac.getZooKeepers(),
            "webindex.accumulo.sasl.enabled=true",
            "webindex.kerberos.principal=" + userPrincipal,
            "webindex.kerberos.keytab=" + keytab,
            "webindex.table.prefix=" + prefix,
            "webindex.fluo.app=" + prefix,
            "webindex.recompute.tablets=2",
            "webindex.store.root=" + dir.resolve("store").toUri(),
            "webindex.work.dir=" + dir.resolve("work").toUri());
    return Files.write(dir.resolve("webindex.properties"), lines);
  }

  static <T> T asRoot(PrivilegedExceptionAction<T> action) throws Exception {
    UserGroupInformation root =
        UserGroupInformation.loginUserFromKeytabAndReturnUGI(rootPrincipal, rootKeytab.toString());
    return root.doAs(action);
  }

  static List<String> dump(Connector conn, String table) throws Exception {
    List<String> lines = new ArrayList<>();
    try (Scanner s = conn.createScanner(table, Authorizations.EMPTY)) {
      for (Map.Entry<Key, Value> e : s) {
        Key k = e.getKey();
        lines.add(
            DumpFormat.line(
                k.getRow().toString(),
                k.getColumnFamily().toString(),
                k.getColumnQualifier().toString(),
                e.getValue().toString()));
      }
    }
    return lines;
  }

  static byte[] resource(String name) throws IOException {
    try (InputStream in = KerberosIT.class.getResourceAsStream("/io/webindex/mr/" + name)) {
      return in.readAllBytes();
    }
  }

  record Result(int exit, String out) {}

  /**
   * The Hadoop configuration of this machine's "cluster", as its {@code *-site.xml} would give it:
   * Hadoop maps the principal to a local user ({@code auth_to_local}; the local job runner's
   * staging directory must be owned by it), and a job submission on a Kerberos cluster names the
   * resource manager's principal as the renewer of the file systems' delegation tokens.
   */
  static Configuration hadoopConf() {
    Configuration conf = new Configuration();
    conf.set("yarn.resourcemanager.principal", "yarn/_HOST@" + realm);
    conf.set(
        "hadoop.security.auth_to_local",
        "RULE:[1:$1@$0](webindex@"
            + realm
            + ")s/.*/"
            + System.getProperty("user.name")
            + "/\n"
            + "DEFAULT");
    return conf;
  }

  /** Runs a Tool as {@code hadoop jar} would, the principal mapped to this machine's user. */
  static Result tool(org.apache.hadoop.util.Tool tool, ByteArrayOutputStream out, String... args)
      throws Exception {
    int exit = ToolRunner.run(hadoopConf(), tool, args);
    return new Result(exit, out.toString(StandardCharsets.UTF_8));
  }

  @Test
  void recomputeAndMapReduceCheckAsAKerberosPrincipal() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("wi"));

    // a keytab other users may read is refused before any login
    Path open = Files.copy(userKeytab, dir.resolve("open.keytab"));
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () -> WebindexConfig.load(writeConf(dir, "wi", open), Map.of()));
    assertTrue(refused.getMessage().contains("readable by other users"), refused.getMessage());

    // a keytab without the principal's key: the KDC refuses, one clear message
    Path wrong = Files.copy(rootKeytab, dir.resolve("wrong.keytab"));
    Files.setPosixFilePermissions(wrong, PosixFilePermissions.fromString("rw-------"));
    StoreException badLogin =
        assertThrows(
            StoreException.class,
            () ->
                AccumuloConnections.connect(
                    WebindexConfig.load(writeConf(dir, "wi", wrong), Map.of())));
    assertTrue(
        badLogin.getMessage().startsWith("cannot log in to Kerberos as " + userPrincipal),
        badLogin.getMessage());

    Files.setPosixFilePermissions(userKeytab, PosixFilePermissions.fromString("rw-------"));
    Path conf = writeConf(dir, "wi", userKeytab);
    WebindexConfig cfg = WebindexConfig.load(conf, Map.of());
    // the login a Tool makes when it reads its configuration (ToolConfig.load)
    KerberosLogin.login(cfg.security(), hadoopConf());
    Connector conn = AccumuloConnections.connect(cfg);
    assertEquals(userPrincipal, conn.whoami(), "connected as the keytab's principal");
    assertEquals(userPrincipal, UserGroupInformation.getLoginUser().getUserName());

    // Kerberos users exist once they log in; root grants the one permission webindex needs
    asRoot(
        () -> {
          mac.getConnector(rootPrincipal, new KerberosToken())
              .securityOperations()
              .grantSystemPermission(userPrincipal, SystemPermission.CREATE_TABLE);
          return null;
        });

    Path batch = Files.createDirectories(dir.resolve("store/batches/00000"));
    Files.write(batch.resolve("part-0.jsonl"), resource("worked-example.jsonl"));
    LocalBatches.markComplete(batch);
    List<String> golden =
        new String(resource("worked-example.tsv"), StandardCharsets.UTF_8).lines().toList();
    for (String run : List.of("r1", "r2")) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      Result r =
          tool(
              new RecomputeTool(new PrintStream(out, true, StandardCharsets.UTF_8)),
              out,
              "--webindex-conf",
              conf.toString(),
              "--run",
              run);
      assertEquals(0, r.exit(), r.out());
      assertTrue(r.out().contains("run " + run + " SUCCEEDED"), r.out());
      assertEquals(golden, dump(conn, "wi_" + run), "run " + run + " as the Kerberos user");
    }

    // the check's MapReduce job: its tasks connect with the job's delegation token
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Result check =
        tool(
            new CheckTool(new PrintStream(out, true, StandardCharsets.UTF_8)),
            out,
            "--webindex-conf",
            conf.toString(),
            "--run",
            "r1",
            "--actual",
            "wi_r2",
            "--mode",
            "mapreduce",
            "--out",
            dir.resolve("check").toString());
    assertEquals(0, check.exit(), check.out());
    assertTrue(
        Files.readString(dir.resolve("check/check.json"))
            .matches("(?s).*\"mode\"\\s*:\\s*\"mapreduce\".*"),
        "the check ran as a MapReduce job");

    // what a task gets: a delegation token and no password, usable without any Kerberos ticket
    Job job = Job.getInstance(new Configuration());
    TaskAccumulo.configure(job, cfg, conn);
    assertNotNull(job.getCredentials().getSecretKey(TaskAccumulo.TOKEN_SECRET));
    assertNull(job.getCredentials().getSecretKey(TaskAccumulo.PASSWORD_SECRET));
    ByteArrayOutputStream xml = new ByteArrayOutputStream();
    job.getConfiguration().writeXml(xml);
    assertFalse(xml.toString(StandardCharsets.UTF_8).contains("keytab"), "no keytab in job.xml");
    List<String> seenByTask =
        UserGroupInformation.createRemoteUser("task")
            .doAs(
                (PrivilegedExceptionAction<List<String>>)
                    () -> {
                      Connector t =
                          TaskAccumulo.connect(job.getConfiguration(), job.getCredentials());
                      assertEquals(userPrincipal, t.whoami());
                      return dump(t, "wi_r1");
                    });
    assertEquals(golden, seenByTask);
  }
}
