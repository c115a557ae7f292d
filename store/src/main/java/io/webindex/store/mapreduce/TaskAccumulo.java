package io.webindex.store.mapreduce;

import io.webindex.core.config.SecurityConfig;
import io.webindex.core.config.WebindexConfig;
import io.webindex.store.AccumuloConnections;
import io.webindex.store.StoreException;
import java.io.IOException;
import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.accumulo.core.client.AccumuloException;
import org.apache.accumulo.core.client.AccumuloSecurityException;
import org.apache.accumulo.core.client.ClientConfiguration;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.client.admin.DelegationTokenConfig;
import org.apache.accumulo.core.client.security.tokens.AuthenticationToken;
import org.apache.accumulo.core.client.security.tokens.AuthenticationToken.AuthenticationTokenSerializer;
import org.apache.accumulo.core.client.security.tokens.DelegationToken;
import org.apache.accumulo.core.client.security.tokens.PasswordToken;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.security.Credentials;

/**
 * How a MapReduce task reaches Accumulo. The job's configuration carries what is not secret (the
 * instance, ZooKeepers, the principal, SASL and SSL settings, trust and key store paths); the job's
 * credentials carry the rest as secret keys: the password, or with SASL a <em>delegation token</em>
 * that the submitting process obtained from Accumulo with its Kerberos login (tasks on a cluster
 * hold no Kerberos ticket of their own), and the SSL store passwords. Nothing secret is in the
 * configuration, so nothing secret reaches {@code job.xml}.
 *
 * <p>A job on Hadoop's local job runner (tasks as threads of the submitting process) may start its
 * tasks with empty credentials: {@code LocalJobRunner.submitJob} starts the job's thread before it
 * hands the job its credentials, and the tasks' configurations copy whichever credentials the job
 * held when the thread built them. The submitting process therefore also keeps each job's
 * credentials under a random handle (the only thing the configuration carries), and a task whose
 * credentials lack a secret takes it from there when it runs in that process.
 */
public final class TaskAccumulo {
  static final String INSTANCE = "webindex.mr.accumulo.instance";
  static final String ZOOKEEPERS = "webindex.mr.accumulo.zookeepers";
  static final String PRINCIPAL = "webindex.mr.accumulo.principal";
  static final String TOKEN_CLASS = "webindex.mr.accumulo.token.class";
  static final String SASL_PRIMARY = "webindex.mr.accumulo.sasl.primary";
  static final String SASL_QOP = "webindex.mr.accumulo.sasl.qop";
  static final String SSL = "webindex.mr.accumulo.ssl";
  static final String TRUSTSTORE = "webindex.mr.accumulo.ssl.truststore";
  static final String TRUSTSTORE_TYPE = "webindex.mr.accumulo.ssl.truststore.type";
  static final String KEYSTORE = "webindex.mr.accumulo.ssl.keystore";
  static final String KEYSTORE_TYPE = "webindex.mr.accumulo.ssl.keystore.type";

  /** The handle of the credentials the submitting process keeps for its in-process tasks. */
  static final String IN_PROCESS_HANDLE = "webindex.mr.accumulo.in-process-handle";

  /**
   * Each configured job's credentials, by handle; weakly, so that a job's entry goes when the job
   * object does (a local job's client and runner hold its credentials until it ends).
   */
  private static final Map<String, WeakReference<Credentials>> IN_PROCESS =
      new ConcurrentHashMap<>();

  /** The password, as a secret key of the job's credentials. */
  public static final Text PASSWORD_SECRET = new Text("webindex.accumulo.password");

  /** The serialized delegation token (SASL), as a secret key of the job's credentials. */
  public static final Text TOKEN_SECRET = new Text("webindex.accumulo.token");

  static final Text TRUSTSTORE_SECRET = new Text("webindex.accumulo.ssl.truststore.password");
  static final Text KEYSTORE_SECRET = new Text("webindex.accumulo.ssl.keystore.password");

  private TaskAccumulo() {}

  /**
   * Gives {@code job}'s tasks the means to connect as {@code conn}'s user.
   *
   * @param conn the submitting process's connection (with SASL: it asks Accumulo for a delegation
   *     token, which needs the user's Kerberos login, not a delegation token)
   * @throws StoreException when Accumulo refuses the delegation token
   */
  public static void configure(Job job, WebindexConfig cfg, Connector conn) {
    Configuration c = job.getConfiguration();
    Credentials creds = job.getCredentials();
    IN_PROCESS.values().removeIf(r -> r.get() == null);
    String handle = UUID.randomUUID().toString();
    IN_PROCESS.put(handle, new WeakReference<>(creds));
    c.set(IN_PROCESS_HANDLE, handle);
    c.set(INSTANCE, cfg.accumuloInstance());
    c.set(ZOOKEEPERS, cfg.zookeepers());
    SecurityConfig s = cfg.security();
    if (s.saslEnabled()) {
      DelegationToken token;
      try {
        token = conn.securityOperations().getDelegationToken(new DelegationTokenConfig());
      } catch (AccumuloException | AccumuloSecurityException e) {
        throw new StoreException(
            "Accumulo refused a delegation token for the job's tasks to "
                + conn.whoami()
                + " (it needs System.OBTAIN_DELEGATION_TOKEN, docs/security.md): "
                + e.getMessage(),
            e);
      }
      c.set(PRINCIPAL, conn.whoami());
      c.set(TOKEN_CLASS, token.getClass().getName());
      c.set(SASL_PRIMARY, s.saslServerPrimary());
      c.set(SASL_QOP, s.saslQop());
      creds.addSecretKey(TOKEN_SECRET, AuthenticationTokenSerializer.serialize(token));
    } else {
      c.set(PRINCIPAL, cfg.accumuloUser());
      c.set(TOKEN_CLASS, PasswordToken.class.getName());
      creds.addSecretKey(
          PASSWORD_SECRET, cfg.accumuloPassword().value().getBytes(StandardCharsets.UTF_8));
    }
    SecurityConfig.Ssl ssl = s.ssl();
    if (ssl.enabled()) {
      c.setBoolean(SSL, true);
      if (!ssl.truststore().isEmpty()) {
        c.set(TRUSTSTORE, ssl.truststore());
        c.set(TRUSTSTORE_TYPE, ssl.truststoreType());
        creds.addSecretKey(TRUSTSTORE_SECRET, bytes(ssl.truststorePassword()));
      }
      if (ssl.clientAuth()) {
        c.set(KEYSTORE, ssl.keystore());
        c.set(KEYSTORE_TYPE, ssl.keystoreType());
        creds.addSecretKey(KEYSTORE_SECRET, bytes(ssl.keystorePassword()));
      }
    }
  }

  /**
   * Connects a task (or anything holding the job's configuration and credentials) to Accumulo.
   *
   * @throws IOException when the credentials lack what {@link #configure} put there, or Accumulo
   *     refuses
   */
  public static Connector connect(JobContext context) throws IOException {
    return connect(context.getConfiguration(), context.getCredentials());
  }

  /** As {@link #connect(JobContext)}, from a configuration and credentials. */
  public static Connector connect(Configuration c, Credentials creds) throws IOException {
    ClientConfiguration cc =
        ClientConfiguration.create().withInstance(c.get(INSTANCE)).withZkHosts(c.get(ZOOKEEPERS));
    String tokenClass = c.get(TOKEN_CLASS, PasswordToken.class.getName());
    AuthenticationToken token;
    if (PasswordToken.class.getName().equals(tokenClass)) {
      token = new PasswordToken(secret(c, creds, PASSWORD_SECRET));
    } else {
      cc =
          cc.withSasl(true, c.get(SASL_PRIMARY, "accumulo"))
              .with(ClientConfiguration.ClientProperty.RPC_SASL_QOP, c.get(SASL_QOP, "auth"));
      token = AuthenticationTokenSerializer.deserialize(tokenClass, secret(c, creds, TOKEN_SECRET));
    }
    if (c.getBoolean(SSL, false)) {
      cc = cc.withSsl(true);
      if (c.get(TRUSTSTORE) != null) {
        cc =
            cc.withTruststore(
                c.get(TRUSTSTORE),
                new String(secret(c, creds, TRUSTSTORE_SECRET), StandardCharsets.UTF_8),
                c.get(TRUSTSTORE_TYPE));
      }
      if (c.get(KEYSTORE) != null) {
        cc =
            cc.with(ClientConfiguration.ClientProperty.INSTANCE_RPC_SSL_CLIENT_AUTH, "true")
                .withKeystore(
                    c.get(KEYSTORE),
                    new String(secret(c, creds, KEYSTORE_SECRET), StandardCharsets.UTF_8),
                    c.get(KEYSTORE_TYPE));
      }
    }
    try {
      return AccumuloConnections.connect(cc, c.get(PRINCIPAL), token);
    } catch (StoreException e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  /**
   * The secret {@code key} from a task's credentials or, for a task running in the submitting
   * process with credentials copied too early (see the class comment), from the job's own.
   */
  static byte[] secret(Configuration c, Credentials creds, Text key) throws IOException {
    byte[] v = creds.getSecretKey(key);
    String handle = c.get(IN_PROCESS_HANDLE);
    if (v == null && handle != null) {
      WeakReference<Credentials> ref = IN_PROCESS.get(handle);
      Credentials own = ref == null ? null : ref.get();
      v = own == null ? null : own.getSecretKey(key);
    }
    if (v == null) {
      throw new IOException(
          "the job's credentials hold no " + key + " (TaskAccumulo.configure was not called)");
    }
    return v;
  }

  private static byte[] bytes(WebindexConfig.Secret s) {
    return s.value().getBytes(StandardCharsets.UTF_8);
  }
}
