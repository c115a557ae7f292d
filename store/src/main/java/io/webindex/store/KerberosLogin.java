package io.webindex.store;

import io.webindex.core.config.SecurityConfig;
import java.io.IOException;
import org.apache.accumulo.core.client.security.tokens.KerberosToken;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The process's Kerberos login (docs/security.md). With {@code webindex.kerberos.principal} and
 * {@code webindex.kerberos.keytab} set, the process logs in from the keytab once, before its first
 * connection, with Hadoop's {@code UserGroupInformation} (which the Accumulo client and the Hadoop
 * file systems and job submission use); the login renews itself while the process runs. Without
 * them, a Hadoop configuration with {@code hadoop.security.authentication=kerberos} uses the ticket
 * cache ({@code kinit}).
 */
public final class KerberosLogin {
  private static final Logger log = LoggerFactory.getLogger(KerberosLogin.class);

  /** The Hadoop key that switches Hadoop's security to Kerberos. */
  public static final String HADOOP_AUTHENTICATION = "hadoop.security.authentication";

  private static final String AUTORENEWAL = "hadoop.kerberos.keytab.login.autorenewal.enabled";

  /** The principal and keytab this process logged in with, or null. */
  private static String current;

  private KerberosLogin() {}

  /**
   * Logs in as configured; a second call with the same principal and keytab does nothing.
   *
   * @param hadoop the process's Hadoop configuration (a Tool's, with its {@code -D} and {@code
   *     -conf}), or null for the default one
   * @throws StoreException when the KDC refuses the keytab
   */
  public static synchronized void login(SecurityConfig security, Configuration hadoop) {
    Configuration base = hadoop == null ? new Configuration() : hadoop;
    if (!security.keytabLogin()) {
      if ("kerberos".equalsIgnoreCase(base.get(HADOOP_AUTHENTICATION)) && current == null) {
        UserGroupInformation.setConfiguration(base);
      }
      return;
    }
    String wanted = security.kerberosPrincipal() + " " + security.kerberosKeytab();
    if (wanted.equals(current)) {
      return;
    }
    Configuration c = new Configuration(base);
    c.set(HADOOP_AUTHENTICATION, "kerberos");
    c.setBoolean(AUTORENEWAL, true);
    UserGroupInformation.setConfiguration(c);
    try {
      UserGroupInformation.loginUserFromKeytab(
          security.kerberosPrincipal(), security.kerberosKeytab());
    } catch (IOException | RuntimeException e) {
      throw new StoreException(
          "cannot log in to Kerberos as "
              + security.kerberosPrincipal()
              + " from the keytab "
              + security.kerberosKeytab()
              + ": "
              + rootMessage(e),
          e);
    }
    current = wanted;
    log.info(
        "logged in to Kerberos as {} from the keytab {}",
        security.kerberosPrincipal(),
        security.kerberosKeytab());
  }

  /**
   * The Accumulo token of the current Kerberos user (the keytab login, else the ticket cache).
   *
   * @throws StoreException when the process holds no Kerberos credentials
   */
  public static KerberosToken token() {
    try {
      if (!UserGroupInformation.isSecurityEnabled()) {
        throw new IllegalStateException("Hadoop security is not Kerberos");
      }
      return new KerberosToken();
    } catch (IOException | RuntimeException e) {
      throw new StoreException(
          SecurityConfig.SASL_ENABLED
              + " needs Kerberos credentials: set "
              + SecurityConfig.KERBEROS_PRINCIPAL
              + " and "
              + SecurityConfig.KERBEROS_KEYTAB
              + ", or kinit with "
              + HADOOP_AUTHENTICATION
              + "=kerberos in the Hadoop configuration ("
              + rootMessage(e)
              + ")",
          e);
    }
  }

  /** TESTS ONLY: forgets the login, for a test JVM that goes on without Kerberos. */
  public static synchronized void resetForTests() {
    current = null;
  }

  static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
  }
}
