package io.webindex.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.config.WebindexConfig;
import io.webindex.testkit.AccumuloITBase;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.client.security.tokens.PasswordToken;
import org.apache.accumulo.core.security.Authorizations;
import org.apache.accumulo.core.security.SystemPermission;
import org.apache.accumulo.core.security.TablePermission;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/permissions.md is enough and not more than needed: a user created with exactly the shell
 * commands of its "The grants" section (read from the page) runs the whole {@link Cycle} through
 * the command line; it owns what it made and can read nothing else; and a user without {@code
 * System.CREATE_TABLE} fails at the first step with a message that names the permission problem.
 */
class LeastPrivilegeIT extends AccumuloITBase {
  private static final Pattern CREATE_USER = Pattern.compile("createuser (\\S+)");
  private static final Pattern GRANT_SYSTEM =
      Pattern.compile("grant System\\.([A-Z_]+) -s -u (\\S+)");

  @TempDir Path tmp;

  /** The user and system permissions the shell commands of docs/permissions.md create. */
  record Grants(String user, Set<SystemPermission> system) {}

  static Grants documentedGrants() throws IOException {
    String base = System.getProperty("basedir", System.getProperty("user.dir"));
    Path doc = Path.of(base).toAbsolutePath().getParent().resolve("docs/permissions.md");
    List<String> lines = Files.readAllLines(doc);
    int section = lines.indexOf("## The grants");
    assertTrue(section >= 0, "docs/permissions.md has a section '## The grants'");
    int open = section + 1;
    while (!lines.get(open).startsWith("```")) {
      open++;
    }
    String user = null;
    Set<SystemPermission> system = EnumSet.noneOf(SystemPermission.class);
    for (int i = open + 1; !lines.get(i).startsWith("```"); i++) {
      String line = lines.get(i).strip();
      Matcher create = CREATE_USER.matcher(line);
      Matcher grant = GRANT_SYSTEM.matcher(line);
      if (create.matches()) {
        user = create.group(1);
      } else if (grant.matches() && grant.group(2).equals(user)) {
        system.add(SystemPermission.valueOf(grant.group(1)));
      } else {
        throw new AssertionError("a shell command this test does not apply: " + line);
      }
    }
    assertTrue(user != null, "the grants create a user");
    return new Grants(user, system);
  }

  @Test
  void theDocumentedGrantsRunTheWholeCycle() throws Exception {
    Grants grants = documentedGrants();
    assertEquals(
        EmbeddedAccumulo.USER_SYSTEM_PERMISSIONS,
        grants.system(),
        "the embedded instance's user has the documented grants");
    String password = "least-privilege-password";
    createUser(grants.user(), password, grants.system().toArray(new SystemPermission[0]));
    Connector user = cluster().getConnector(grants.user(), password);
    for (SystemPermission p : SystemPermission.values()) {
      assertEquals(
          grants.system().contains(p),
          user.securityOperations().hasSystemPermission(grants.user(), p),
          p.toString());
    }

    String prefix = newTableName("lp");
    Path conf = writeConf(grants.user(), password, prefix);
    List<Cycle.Step> steps =
        Cycle.run(tmp, conf, tmp.resolve("store"), tmp.resolve("reports"), prefix);
    assertTrue(steps.size() >= 10, steps.toString());

    // what it has, it has as the owner of its tables; a table of another user stays closed
    assertTrue(
        user.securityOperations()
            .hasTablePermission(grants.user(), prefix + "_meta", TablePermission.DROP_TABLE));
    String others = createTable("others");
    Scanner s = user.createScanner(others, Authorizations.EMPTY);
    assertThrows(RuntimeException.class, () -> s.iterator().hasNext());
    assertFalse(
        user.securityOperations().hasTablePermission(grants.user(), others, TablePermission.READ));
  }

  @Test
  void withoutCreateTableTheFirstStepFails() throws Exception {
    String name = "no_grants";
    String password = "no-grants-password";
    createUser(name, password);
    String prefix = newTableName("ng");
    Path conf = writeConf(name, password, prefix);
    Path b0 = Files.createDirectories(tmp.resolve("store/batches/00000"));
    Files.writeString(
        b0.resolve("p.jsonl"),
        "{\"url\":\"http://a.com/\",\"crawled\":\"2026-01-01T00:00:00Z\",\"links\":[]}\n");
    // the recompute tool reports on System.err, not on the command's stderr
    PrintStream err = System.err;
    ByteArrayOutputStream toolErr = new ByteArrayOutputStream();
    Run r;
    try {
      System.setErr(new PrintStream(toolErr, true, StandardCharsets.UTF_8));
      r = Run.of(tmp, "recompute", "--conf", conf.toString(), "--run", "r0");
    } finally {
      System.setErr(err);
    }
    String all = r + toolErr.toString(StandardCharsets.UTF_8);
    assertEquals(2, r.status(), all);
    assertTrue(all.contains("PERMISSION_DENIED for user " + name), all);
    assertFalse(all.contains(password), all);
    assertFalse(connector().tableOperations().exists(prefix + "_meta"));
    assertFalse(connector().tableOperations().exists(prefix + "_r0"));
    assertTrue(
        cluster()
            .getConnector(name, password)
            .securityOperations()
            .authenticateUser(name, new PasswordToken(password)));
  }

  private Path writeConf(String user, String password, String prefix) throws IOException {
    Path pw =
        Files.createFile(
            tmp.resolve("accumulo.password"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(pw, password + "\n");
    List<String> lines =
        new ArrayList<>(
            List.of(
                WebindexConfig.INSTANCE + "=" + instanceName(),
                WebindexConfig.ZOOKEEPERS + "=" + zookeepers(),
                WebindexConfig.USER + "=" + user,
                WebindexConfig.PASSWORD_FILE + "=" + pw,
                WebindexConfig.TABLE_PREFIX + "=" + prefix,
                WebindexConfig.FLUO_APP + "=" + prefix,
                WebindexConfig.STORE_ROOT + "=" + tmp.resolve("store").toUri(),
                WebindexConfig.WORK_DIR + "=" + tmp.resolve("work").toUri(),
                WebindexConfig.RETENTION_RUNS + "=1",
                WebindexConfig.FLUO_BUCKETS + "=4"));
    return Files.write(tmp.resolve("webindex.properties"), lines);
  }
}
