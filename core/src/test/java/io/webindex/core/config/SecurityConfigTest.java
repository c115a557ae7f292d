package io.webindex.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SecurityConfigTest {
  private static Path file(Path dir, String name, String content, String mode) throws Exception {
    Path f = dir.resolve(name);
    Files.writeString(f, content);
    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString(mode));
    return f;
  }

  @Test
  void offByDefaultAndDefaultUserIsNotRoot() {
    WebindexConfig c = WebindexConfig.fromMap(Map.of(), Map.of());
    assertEquals(SecurityConfig.OFF, c.security());
    assertEquals("webindex", c.accumuloUser());
    assertFalse(c.security().keytabLogin());
    assertFalse(c.security().webTls().enabled());
  }

  @Test
  void keytabMustBeOwnerOnly(@TempDir Path dir) throws Exception {
    Path kt = file(dir, "wi.keytab", "not a real keytab", "rw-r--r--");
    Map<String, String> m = new HashMap<>();
    m.put(SecurityConfig.KERBEROS_PRINCIPAL, "webindex/host@EXAMPLE.COM");
    m.put(SecurityConfig.KERBEROS_KEYTAB, kt.toString());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> WebindexConfig.fromMap(m, Map.of()));
    assertEquals(
        SecurityConfig.KERBEROS_KEYTAB
            + " "
            + kt
            + " may be read by other users (mode rw-r--r--): make it private to its owner with"
            + " chmod 600 "
            + kt,
        e.getMessage());
    // the group may not read it either, as for every secret file
    Files.setPosixFilePermissions(kt, PosixFilePermissions.fromString("rw-r-----"));
    assertThrows(IllegalArgumentException.class, () -> WebindexConfig.fromMap(m, Map.of()));
    Files.setPosixFilePermissions(kt, PosixFilePermissions.fromString("r--------"));
    SecurityConfig s = WebindexConfig.fromMap(m, Map.of()).security();
    assertTrue(s.keytabLogin());
    assertEquals("webindex/host@EXAMPLE.COM", s.kerberosPrincipal());
  }

  @Test
  void principalAndKeytabGoTogether(@TempDir Path dir) throws Exception {
    Path kt = file(dir, "wi.keytab", "x", "rw-------");
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                WebindexConfig.fromMap(
                    Map.of(SecurityConfig.KERBEROS_KEYTAB, kt.toString()), Map.of()));
    assertTrue(e.getMessage().contains("set both or neither"), e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () ->
            WebindexConfig.fromMap(
                Map.of(SecurityConfig.KERBEROS_KEYTAB, dir.resolve("missing").toString()),
                Map.of()));
  }

  @Test
  void saslQopAndBooleansAreChecked() {
    assertThrows(
        IllegalArgumentException.class,
        () -> WebindexConfig.fromMap(Map.of(SecurityConfig.SASL_QOP, "privacy"), Map.of()));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> WebindexConfig.fromMap(Map.of(SecurityConfig.SASL_ENABLED, "yes"), Map.of()));
    assertEquals("webindex.accumulo.sasl.enabled is true or false: yes", e.getMessage());
    SecurityConfig s =
        WebindexConfig.fromMap(
                Map.of(SecurityConfig.SASL_ENABLED, "TRUE", SecurityConfig.SASL_QOP, "auth-conf"),
                Map.of())
            .security();
    assertTrue(s.saslEnabled());
    assertEquals("auth-conf", s.saslQop());
    assertEquals("accumulo", s.saslServerPrimary());
  }

  @Test
  void sslStorePasswordsFromOwnerOnlyFilesOrEnvironmentNeverShown(@TempDir Path dir)
      throws Exception {
    Path ts = file(dir, "trust.jks", "x", "rw-r--r--");
    Path ks = file(dir, "key.jks", "x", "rw-------");
    Path kspw = file(dir, "key.pw", "ks-secret\n", "rw-r--r--");
    Map<String, String> m = new HashMap<>();
    m.put(SecurityConfig.SSL_ENABLED, "true");
    m.put(SecurityConfig.SSL_TRUSTSTORE, ts.toString());
    m.put(SecurityConfig.SSL_KEYSTORE, ks.toString());
    m.put(SecurityConfig.SSL_KEYSTORE_PASSWORD_FILE, kspw.toString());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> WebindexConfig.fromMap(m, Map.of()));
    assertTrue(
        e.getMessage().startsWith(SecurityConfig.SSL_KEYSTORE_PASSWORD_FILE), e.getMessage());
    Files.setPosixFilePermissions(kspw, PosixFilePermissions.fromString("rw-------"));
    WebindexConfig c =
        WebindexConfig.fromMap(m, Map.of(SecurityConfig.SSL_TRUSTSTORE_PASSWORD_ENV, "ts-secret"));
    SecurityConfig.Ssl ssl = c.security().ssl();
    assertEquals("ks-secret", ssl.keystorePassword().value());
    assertEquals("ts-secret", ssl.truststorePassword().value());
    assertTrue(ssl.clientAuth());
    assertFalse(c.toString().contains("secret"), c.toString());
    assertFalse(c.toMapWithoutSecrets().toString().contains("secret"));
    assertEquals(ts.toString(), c.toMapWithoutSecrets().get(SecurityConfig.SSL_TRUSTSTORE));
    m.remove(SecurityConfig.SSL_KEYSTORE_PASSWORD_FILE);
    assertThrows(IllegalArgumentException.class, () -> WebindexConfig.fromMap(m, Map.of()));
    m.put(SecurityConfig.SSL_ENABLED, "false");
    e = assertThrows(IllegalArgumentException.class, () -> WebindexConfig.fromMap(m, Map.of()));
    assertTrue(e.getMessage().contains("is set but webindex.accumulo.ssl.enabled is not true"));
  }

  @Test
  void webTlsNeedsItsPasswordAndRedirectNeedsTls(@TempDir Path dir) throws Exception {
    Path ks = file(dir, "web.p12", "x", "rw-------");
    Map<String, String> m = new HashMap<>();
    m.put(SecurityConfig.WEB_TLS_KEYSTORE, ks.toString());
    assertThrows(IllegalArgumentException.class, () -> WebindexConfig.fromMap(m, Map.of()));
    m.put(SecurityConfig.WEB_TLS_REDIRECT_PORT, "8080");
    SecurityConfig.WebTls tls =
        WebindexConfig.fromMap(m, Map.of(SecurityConfig.WEB_TLS_KEYSTORE_PASSWORD_ENV, "pw"))
            .security()
            .webTls();
    assertTrue(tls.enabled());
    assertEquals("PKCS12", tls.keystoreType());
    assertEquals(8080, tls.redirectPort());
    m.put(SecurityConfig.WEB_TLS_REDIRECT_PORT, "70000");
    assertThrows(
        IllegalArgumentException.class,
        () -> WebindexConfig.fromMap(m, Map.of(SecurityConfig.WEB_TLS_KEYSTORE_PASSWORD_ENV, "p")));
    m.remove(SecurityConfig.WEB_TLS_KEYSTORE);
    m.put(SecurityConfig.WEB_TLS_REDIRECT_PORT, "8080");
    assertThrows(IllegalArgumentException.class, () -> WebindexConfig.fromMap(m, Map.of()));
  }

  @Test
  void relativeSecurityFilesAreRelativeToTheConfFile(@TempDir Path dir) throws Exception {
    file(dir, "wi.keytab", "x", "rw-------");
    Files.writeString(
        dir.resolve("w.properties"),
        "webindex.kerberos.principal=webindex@EXAMPLE.COM\nwebindex.kerberos.keytab=wi.keytab\n");
    WebindexConfig c = WebindexConfig.load(dir.resolve("w.properties"), Map.of());
    assertEquals(dir.resolve("wi.keytab").toString(), c.security().kerberosKeytab());
    WebindexConfig again = WebindexConfig.fromMap(c.toMapWithoutSecrets(), Map.of());
    assertEquals(c.security(), again.security());
  }
}
