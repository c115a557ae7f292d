package io.webindex.fluo;

import io.webindex.core.config.WebindexConfig;
import io.webindex.store.StoreException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Accumulo password of the exporter's user, known only to the processes that run the
 * application's workers: the application configuration (which Fluo stores in ZooKeeper) names the
 * instance and the user, never the password. A process registers the password it loaded from its
 * own webindex configuration when it opens the application ({@link WebindexApp#connection}); a
 * worker process started without one reads the environment variable {@value
 * WebindexConfig#PASSWORD_ENV}.
 */
final class ExportCredentials {
  private static final Map<String, String> PASSWORDS = new ConcurrentHashMap<>();

  private ExportCredentials() {}

  static void register(String instance, String user, String password) {
    PASSWORDS.put(key(instance, user), password);
  }

  static String password(String instance, String user) {
    String pw = PASSWORDS.get(key(instance, user));
    if (pw == null) {
      pw = System.getenv(WebindexConfig.PASSWORD_ENV);
    }
    if (pw == null || pw.isEmpty()) {
      throw new StoreException(
          "the exporter does not know the Accumulo password of user "
              + user
              + " on instance "
              + instance
              + ": start the workers with the webindex configuration (--conf) or set "
              + WebindexConfig.PASSWORD_ENV);
    }
    return pw;
  }

  private static String key(String instance, String user) {
    return instance + "\n" + user;
  }
}
