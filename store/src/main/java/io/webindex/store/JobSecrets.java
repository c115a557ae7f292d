package io.webindex.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;

/**
 * Keeps secrets out of Hadoop configurations. A job's configuration is written to {@code job.xml}
 * in the staging directory, shown by the job history server and the ResourceManager UI, and read by
 * every task: nothing secret belongs in it. The tools refuse a {@code webindex.*} secret (any key
 * with {@code password} or {@code secret} in its name) in the configuration they are given (from
 * {@code -D}, {@code -conf} or a {@code *-site.xml}), and the MapReduce tools strip such keys from
 * every job before it is submitted. What a task must know goes into the job's credentials instead
 * ({@code Job.getCredentials().addSecretKey}).
 */
public final class JobSecrets {
  private JobSecrets() {}

  /** A {@code webindex.*} key whose value is, or says where to find, a secret. */
  public static boolean isSecretKey(String key) {
    String k = key.toLowerCase(Locale.ROOT);
    return k.startsWith("webindex.") && (k.contains("password") || k.contains("secret"));
  }

  /** The secret keys set in {@code conf}, sorted. */
  public static List<String> secretKeys(Configuration conf) {
    TreeSet<String> keys = new TreeSet<>();
    for (Map.Entry<String, String> e : conf) {
      if (isSecretKey(e.getKey())) {
        keys.add(e.getKey());
      }
    }
    return new ArrayList<>(keys);
  }

  /**
   * Refuses a configuration given to a tool that holds a secret.
   *
   * @throws IllegalArgumentException naming the keys (never their values), for a usage error
   */
  public static void refuse(Configuration conf) {
    List<String> keys = secretKeys(conf);
    if (!keys.isEmpty()) {
      throw new IllegalArgumentException(
          String.join(", ", keys)
              + " given as a Hadoop property (-D, -conf or a *-site.xml): refused, since a Hadoop"
              + " configuration is copied into every job's job.xml, readable by anyone who can see"
              + " the job. Put the Accumulo password in the --webindex-conf file (webindex.accumulo"
              + ".password, or webindex.accumulo.password.file naming an owner-only file) or in the"
              + " environment variable WEBINDEX_ACCUMULO_PASSWORD");
    }
  }

  /** Removes every secret key from {@code conf}; returns the keys removed. */
  public static List<String> scrub(Configuration conf) {
    List<String> keys = secretKeys(conf);
    for (String k : keys) {
      conf.unset(k);
    }
    return keys;
  }
}
