package io.webindex.store.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.webindex.core.config.WebindexConfig;
import io.webindex.store.JobSecrets;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.security.Credentials;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a job's tasks get: paths and names in the configuration, secrets in the credentials. */
class TaskAccumuloTest {
  @Test
  void passwordAndStorePasswordsOnlyInTheCredentials(@TempDir Path dir) throws Exception {
    Path ts = Files.writeString(dir.resolve("trust.jks"), "x");
    Path ks = Files.writeString(dir.resolve("key.jks"), "x");
    Path pw = Files.writeString(dir.resolve("key.pw"), "keystore-pw-123");
    Files.setPosixFilePermissions(pw, PosixFilePermissions.fromString("rw-------"));
    Map<String, String> m = new HashMap<>();
    m.put("webindex.accumulo.instance", "inst");
    m.put("webindex.accumulo.zookeepers", "zk:2181");
    m.put("webindex.accumulo.user", "wi");
    m.put("webindex.accumulo.password", "accumulo-pw-456");
    m.put("webindex.accumulo.ssl.enabled", "true");
    m.put("webindex.accumulo.ssl.truststore", ts.toString());
    m.put("webindex.accumulo.ssl.keystore", ks.toString());
    m.put("webindex.accumulo.ssl.keystore.password.file", pw.toString());
    WebindexConfig cfg =
        WebindexConfig.fromMap(
            m, Map.of("WEBINDEX_ACCUMULO_SSL_TRUSTSTORE_PASSWORD", "truststore-pw-789"));

    Job job = Job.getInstance(new Configuration(false));
    // password authentication asks nothing of Accumulo: no connection needed
    TaskAccumulo.configure(job, cfg, null);

    ByteArrayOutputStream xml = new ByteArrayOutputStream();
    job.getConfiguration().writeXml(xml);
    String jobXml = xml.toString(StandardCharsets.UTF_8);
    for (String secret : List.of("accumulo-pw-456", "keystore-pw-123", "truststore-pw-789")) {
      assertFalse(jobXml.contains(secret), secret + " in the job configuration");
    }
    assertEquals(List.of(), JobSecrets.secretKeys(job.getConfiguration()));
    Configuration c = job.getConfiguration();
    assertEquals("inst", c.get("webindex.mr.accumulo.instance"));
    assertEquals("wi", c.get("webindex.mr.accumulo.principal"));
    assertEquals(ts.toString(), c.get("webindex.mr.accumulo.ssl.truststore"));
    assertEquals(ks.toString(), c.get("webindex.mr.accumulo.ssl.keystore"));
    assertEquals(
        "accumulo-pw-456",
        new String(
            job.getCredentials().getSecretKey(TaskAccumulo.PASSWORD_SECRET),
            StandardCharsets.UTF_8));
    assertEquals(
        "keystore-pw-123",
        new String(
            job.getCredentials().getSecretKey(TaskAccumulo.KEYSTORE_SECRET),
            StandardCharsets.UTF_8));
    assertEquals(
        "truststore-pw-789",
        new String(
            job.getCredentials().getSecretKey(TaskAccumulo.TRUSTSTORE_SECRET),
            StandardCharsets.UTF_8));
    assertNull(job.getCredentials().getSecretKey(TaskAccumulo.TOKEN_SECRET));
  }

  /**
   * Hadoop's local job runner may give a task a copy of the job's credentials taken before the job
   * got them (it starts the job's thread first): such a task, in the submitting process, still
   * finds the secrets; a task elsewhere (another process: no such handle) does not.
   */
  @Test
  void aTaskInTheSubmittingProcessFindsTheSecretsItsCopiedCredentialsLack() throws Exception {
    WebindexConfig cfg =
        WebindexConfig.fromMap(
            Map.of(
                "webindex.accumulo.instance", "inst",
                "webindex.accumulo.zookeepers", "zk:2181",
                "webindex.accumulo.user", "wi",
                "webindex.accumulo.password", "accumulo-pw-456"),
            Map.of());
    Job job = Job.getInstance(new Configuration(false));
    TaskAccumulo.configure(job, cfg, null);
    Configuration taskConf = new Configuration(job.getConfiguration());
    Credentials copiedTooEarly = new Credentials();

    assertEquals(
        "accumulo-pw-456",
        new String(
            TaskAccumulo.secret(taskConf, copiedTooEarly, TaskAccumulo.PASSWORD_SECRET),
            StandardCharsets.UTF_8));
    assertEquals(
        "accumulo-pw-456",
        new String(
            TaskAccumulo.secret(taskConf, job.getCredentials(), TaskAccumulo.PASSWORD_SECRET),
            StandardCharsets.UTF_8));

    Configuration elsewhere = new Configuration(job.getConfiguration());
    elsewhere.set(TaskAccumulo.IN_PROCESS_HANDLE, "a-handle-of-another-process");
    IOException e =
        assertThrows(
            IOException.class,
            () -> TaskAccumulo.secret(elsewhere, copiedTooEarly, TaskAccumulo.PASSWORD_SECRET));
    assertEquals(
        "the job's credentials hold no webindex.accumulo.password"
            + " (TaskAccumulo.configure was not called)",
        e.getMessage());
    Configuration unconfigured = new Configuration(false);
    assertThrows(
        IOException.class,
        () -> TaskAccumulo.secret(unconfigured, copiedTooEarly, TaskAccumulo.PASSWORD_SECRET));
  }
}
