package io.webindex.core.config;

import io.webindex.core.config.WebindexConfig.Secret;
import io.webindex.core.files.SecretFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The secure-cluster part of the configuration (docs/security.md): Kerberos login from a keytab,
 * the Accumulo client's SASL and SSL, and TLS for the web application. Everything is off by
 * default. Secrets (the store passwords) come from files or environment variables only, never from
 * a value in the configuration; a keytab or a password file readable by other users is refused.
 *
 * @param kerberosPrincipal the principal to log in as from {@code kerberosKeytab} ("" for none)
 * @param kerberosKeytab the keytab file ("" for none; both or neither are set)
 * @param saslEnabled the Accumulo client uses SASL (Kerberos) instead of a password
 * @param saslServerPrimary the primary of the Accumulo servers' principal ({@code accumulo})
 * @param saslQop the SASL quality of protection: {@code auth}, {@code auth-int} or {@code
 *     auth-conf}
 * @param ssl the Accumulo client's SSL, or {@link Ssl#OFF}
 * @param webTls the web application's HTTPS, or {@link WebTls#OFF}
 */
public record SecurityConfig(
    String kerberosPrincipal,
    String kerberosKeytab,
    boolean saslEnabled,
    String saslServerPrimary,
    String saslQop,
    Ssl ssl,
    WebTls webTls) {

  public static final String KERBEROS_PRINCIPAL = "webindex.kerberos.principal";
  public static final String KERBEROS_KEYTAB = "webindex.kerberos.keytab";
  public static final String SASL_ENABLED = "webindex.accumulo.sasl.enabled";
  public static final String SASL_SERVER_PRIMARY = "webindex.accumulo.sasl.server.primary";
  public static final String SASL_QOP = "webindex.accumulo.sasl.qop";
  public static final String SSL_ENABLED = "webindex.accumulo.ssl.enabled";
  public static final String SSL_TRUSTSTORE = "webindex.accumulo.ssl.truststore";
  public static final String SSL_TRUSTSTORE_TYPE = "webindex.accumulo.ssl.truststore.type";
  public static final String SSL_TRUSTSTORE_PASSWORD_FILE =
      "webindex.accumulo.ssl.truststore.password.file";
  public static final String SSL_TRUSTSTORE_PASSWORD_ENV =
      "WEBINDEX_ACCUMULO_SSL_TRUSTSTORE_PASSWORD";
  public static final String SSL_KEYSTORE = "webindex.accumulo.ssl.keystore";
  public static final String SSL_KEYSTORE_TYPE = "webindex.accumulo.ssl.keystore.type";
  public static final String SSL_KEYSTORE_PASSWORD_FILE =
      "webindex.accumulo.ssl.keystore.password.file";
  public static final String SSL_KEYSTORE_PASSWORD_ENV = "WEBINDEX_ACCUMULO_SSL_KEYSTORE_PASSWORD";
  public static final String WEB_TLS_KEYSTORE = "webindex.web.tls.keystore";
  public static final String WEB_TLS_KEYSTORE_TYPE = "webindex.web.tls.keystore.type";
  public static final String WEB_TLS_KEYSTORE_PASSWORD_FILE =
      "webindex.web.tls.keystore.password.file";
  public static final String WEB_TLS_KEYSTORE_PASSWORD_ENV = "WEBINDEX_WEB_TLS_KEYSTORE_PASSWORD";
  public static final String WEB_TLS_REDIRECT_PORT = "webindex.web.tls.redirect.port";

  /** The SASL qualities of protection Accumulo knows. */
  public static final Set<String> QOPS = Set.of("auth", "auth-int", "auth-conf");

  /** Keys naming files; a relative one is relative to the configuration file's directory. */
  public static final Set<String> PATH_KEYS =
      Set.of(
          KERBEROS_KEYTAB,
          SSL_TRUSTSTORE,
          SSL_TRUSTSTORE_PASSWORD_FILE,
          SSL_KEYSTORE,
          SSL_KEYSTORE_PASSWORD_FILE,
          WEB_TLS_KEYSTORE,
          WEB_TLS_KEYSTORE_PASSWORD_FILE);

  /** Every key of this part. */
  public static final Set<String> KEYS =
      Set.of(
          KERBEROS_PRINCIPAL,
          KERBEROS_KEYTAB,
          SASL_ENABLED,
          SASL_SERVER_PRIMARY,
          SASL_QOP,
          SSL_ENABLED,
          SSL_TRUSTSTORE,
          SSL_TRUSTSTORE_TYPE,
          SSL_TRUSTSTORE_PASSWORD_FILE,
          SSL_KEYSTORE,
          SSL_KEYSTORE_TYPE,
          SSL_KEYSTORE_PASSWORD_FILE,
          WEB_TLS_KEYSTORE,
          WEB_TLS_KEYSTORE_TYPE,
          WEB_TLS_KEYSTORE_PASSWORD_FILE,
          WEB_TLS_REDIRECT_PORT);

  /** Nothing secure: password authentication, no SSL, plain HTTP. */
  public static final SecurityConfig OFF =
      new SecurityConfig("", "", false, "accumulo", "auth", Ssl.OFF, WebTls.OFF);

  /**
   * The Accumulo client's SSL: a trust store for the servers' certificates (empty: the JVM's
   * default) and, for client authentication, a key store.
   */
  public record Ssl(
      boolean enabled,
      String truststore,
      String truststoreType,
      Secret truststorePassword,
      String keystore,
      String keystoreType,
      Secret keystorePassword) {
    public static final Ssl OFF =
        new Ssl(false, "", "jks", new Secret(""), "", "jks", new Secret(""));

    /** Whether the client presents a certificate of its own. */
    public boolean clientAuth() {
      return enabled && !keystore.isEmpty();
    }
  }

  /**
   * HTTPS for the web application: a key store with its certificate and private key, and an
   * optional plain HTTP port that only redirects to HTTPS (-1: no plain HTTP at all).
   */
  public record WebTls(
      String keystore, String keystoreType, Secret keystorePassword, int redirectPort) {
    public static final WebTls OFF = new WebTls("", "PKCS12", new Secret(""), -1);

    public boolean enabled() {
      return !keystore.isEmpty();
    }
  }

  public SecurityConfig {
    if (kerberosPrincipal.isEmpty() != kerberosKeytab.isEmpty()) {
      throw new IllegalArgumentException(
          KERBEROS_PRINCIPAL + " and " + KERBEROS_KEYTAB + " go together: set both or neither");
    }
    if (!QOPS.contains(saslQop)) {
      throw new IllegalArgumentException(
          SASL_QOP + " is one of auth, auth-int, auth-conf: " + saslQop);
    }
    if (saslServerPrimary.isEmpty()) {
      throw new IllegalArgumentException(SASL_SERVER_PRIMARY + " is empty");
    }
  }

  /** Whether a Kerberos keytab login is configured. */
  public boolean keytabLogin() {
    return !kerberosKeytab.isEmpty();
  }

  /**
   * Reads this part from configuration keys and an environment; files (keytab, stores, password
   * files) must exist, and keytabs and password files must not be readable by other users.
   *
   * @throws IllegalArgumentException naming the key, for a configuration error
   */
  public static SecurityConfig fromMap(Map<String, String> m, Map<String, String> env) {
    String keytab = m.getOrDefault(KERBEROS_KEYTAB, "");
    if (!keytab.isEmpty()) {
      requireOwnerOnly(KERBEROS_KEYTAB, Path.of(keytab));
    }
    boolean sslOn = bool(m, SSL_ENABLED);
    Ssl ssl = Ssl.OFF;
    if (sslOn) {
      String ts = existing(m, SSL_TRUSTSTORE);
      String ks = existing(m, SSL_KEYSTORE);
      ssl =
          new Ssl(
              true,
              ts,
              m.getOrDefault(SSL_TRUSTSTORE_TYPE, "jks"),
              secret(m, env, SSL_TRUSTSTORE_PASSWORD_FILE, SSL_TRUSTSTORE_PASSWORD_ENV),
              ks,
              m.getOrDefault(SSL_KEYSTORE_TYPE, "jks"),
              secret(m, env, SSL_KEYSTORE_PASSWORD_FILE, SSL_KEYSTORE_PASSWORD_ENV));
      if (!ks.isEmpty() && !ssl.keystorePassword().isPresent()) {
        throw new IllegalArgumentException(
            SSL_KEYSTORE
                + " needs its password: set "
                + SSL_KEYSTORE_PASSWORD_FILE
                + " or the environment variable "
                + SSL_KEYSTORE_PASSWORD_ENV);
      }
    } else {
      for (String k : new String[] {SSL_TRUSTSTORE, SSL_KEYSTORE}) {
        if (!m.getOrDefault(k, "").isEmpty()) {
          throw new IllegalArgumentException(k + " is set but " + SSL_ENABLED + " is not true");
        }
      }
    }
    WebTls tls = WebTls.OFF;
    String webKs = existing(m, WEB_TLS_KEYSTORE);
    int redirect = redirectPort(m);
    if (!webKs.isEmpty()) {
      Secret pw = secret(m, env, WEB_TLS_KEYSTORE_PASSWORD_FILE, WEB_TLS_KEYSTORE_PASSWORD_ENV);
      if (!pw.isPresent()) {
        throw new IllegalArgumentException(
            WEB_TLS_KEYSTORE
                + " needs its password: set "
                + WEB_TLS_KEYSTORE_PASSWORD_FILE
                + " or the environment variable "
                + WEB_TLS_KEYSTORE_PASSWORD_ENV);
      }
      tls = new WebTls(webKs, m.getOrDefault(WEB_TLS_KEYSTORE_TYPE, "PKCS12"), pw, redirect);
    } else if (redirect >= 0) {
      throw new IllegalArgumentException(
          WEB_TLS_REDIRECT_PORT + " is set but " + WEB_TLS_KEYSTORE + " is not");
    }
    return new SecurityConfig(
        m.getOrDefault(KERBEROS_PRINCIPAL, ""),
        keytab,
        bool(m, SASL_ENABLED),
        m.getOrDefault(SASL_SERVER_PRIMARY, "accumulo"),
        m.getOrDefault(SASL_QOP, "auth"),
        ssl,
        tls);
  }

  /** The keys of this part that are set, without secrets (store passwords are never keys). */
  public Map<String, String> toMap() {
    Map<String, String> m = new TreeMap<>();
    if (keytabLogin()) {
      m.put(KERBEROS_PRINCIPAL, kerberosPrincipal);
      m.put(KERBEROS_KEYTAB, kerberosKeytab);
    }
    if (saslEnabled) {
      m.put(SASL_ENABLED, "true");
      m.put(SASL_SERVER_PRIMARY, saslServerPrimary);
      m.put(SASL_QOP, saslQop);
    }
    if (ssl.enabled()) {
      m.put(SSL_ENABLED, "true");
      putIfSet(m, SSL_TRUSTSTORE, ssl.truststore());
      m.put(SSL_TRUSTSTORE_TYPE, ssl.truststoreType());
      putIfSet(m, SSL_KEYSTORE, ssl.keystore());
      m.put(SSL_KEYSTORE_TYPE, ssl.keystoreType());
    }
    if (webTls.enabled()) {
      m.put(WEB_TLS_KEYSTORE, webTls.keystore());
      m.put(WEB_TLS_KEYSTORE_TYPE, webTls.keystoreType());
      if (webTls.redirectPort() >= 0) {
        m.put(WEB_TLS_REDIRECT_PORT, Integer.toString(webTls.redirectPort()));
      }
    }
    return m;
  }

  /**
   * Refuses a secret file (a keytab, a password file) that is missing, or that its group or other
   * users may read or write ({@link SecretFiles#refuseShared}: the same rule as the Accumulo
   * password file's).
   *
   * @throws IllegalArgumentException naming the key, the file, its mode and the fix
   */
  public static void requireOwnerOnly(String key, Path file) {
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException(key + " " + file + " is not a readable file");
    }
    SecretFiles.refuseShared(file, key);
  }

  private static Secret secret(
      Map<String, String> m, Map<String, String> env, String fileKey, String envName) {
    String f = m.getOrDefault(fileKey, "");
    if (!f.isEmpty()) {
      Path p = Path.of(f);
      requireOwnerOnly(fileKey, p);
      return new Secret(SecretFiles.read(p, fileKey));
    }
    String v = env.get(envName);
    return new Secret(v == null ? "" : v);
  }

  private static String existing(Map<String, String> m, String key) {
    String v = m.getOrDefault(key, "");
    if (!v.isEmpty() && !Files.isRegularFile(Path.of(v))) {
      throw new IllegalArgumentException(key + " " + v + " is not a readable file");
    }
    return v;
  }

  private static int redirectPort(Map<String, String> m) {
    String v = m.getOrDefault(WEB_TLS_REDIRECT_PORT, "");
    if (v.isEmpty()) {
      return -1;
    }
    try {
      int p = Integer.parseInt(v.strip());
      if (p < 0 || p > 65535) {
        throw new NumberFormatException();
      }
      return p;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          WEB_TLS_REDIRECT_PORT + " must be a port between 0 and 65535: " + v);
    }
  }

  private static boolean bool(Map<String, String> m, String key) {
    String v = m.getOrDefault(key, "false").strip().toLowerCase(Locale.ROOT);
    return switch (v) {
      case "true" -> true;
      case "false", "" -> false;
      default -> throw new IllegalArgumentException(key + " is true or false: " + v);
    };
  }

  private static void putIfSet(Map<String, String> m, String k, String v) {
    if (!v.isEmpty()) {
      m.put(k, v);
    }
  }
}
