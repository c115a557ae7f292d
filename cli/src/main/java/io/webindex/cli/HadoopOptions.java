package io.webindex.cli;

import io.webindex.embedded.ForklessLocalFileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;

/**
 * Hadoop's generic options on a {@code bin/webindex} command line, as {@code hadoop jar} takes them
 * for a Tool: {@code -D key=value} (or {@code -Dkey=value}) and {@code -conf FILE}, anywhere after
 * the command name. {@link #split} takes them out of the command's own arguments; {@link
 * #configuration()} is the Hadoop configuration the command's Tools run with: the class path's
 * (which holds {@code HADOOP_CONF_DIR} when {@code bin/webindex} found one), then each {@code
 * -conf} file, then each {@code -D}, later ones winning as with {@code ToolRunner}.
 */
final class HadoopOptions {
  /** No generic options. */
  static final HadoopOptions NONE = new HadoopOptions(List.of(), Map.of());

  private final List<Path> confFiles;
  private final Map<String, String> properties;

  private HadoopOptions(List<Path> confFiles, Map<String, String> properties) {
    this.confFiles = List.copyOf(confFiles);
    this.properties = properties;
  }

  /** The generic options of a command line and the arguments left for the command. */
  record Split(HadoopOptions options, List<String> rest) {}

  /**
   * Separates the generic options from the rest of {@code args}.
   *
   * @throws UsageException for {@code -D} without {@code key=value}, or {@code -conf} without an
   *     existing file
   */
  static Split split(List<String> args) {
    List<Path> files = new ArrayList<>();
    Map<String, String> props = new LinkedHashMap<>();
    List<String> rest = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (a.equals("-D") || (a.startsWith("-D") && a.length() > 2)) {
        String kv;
        if (a.equals("-D")) {
          if (i + 1 >= args.size()) {
            throw new UsageException("-D needs key=value");
          }
          kv = args.get(++i);
        } else {
          kv = a.substring(2);
        }
        int eq = kv.indexOf('=');
        if (eq <= 0) {
          throw new UsageException("-D needs key=value, got '" + kv + "'");
        }
        props.put(kv.substring(0, eq), kv.substring(eq + 1));
      } else if (a.equals("-conf")) {
        if (i + 1 >= args.size()) {
          throw new UsageException("-conf needs a Hadoop configuration file");
        }
        Path file = Path.of(args.get(++i)).toAbsolutePath().normalize();
        if (!Files.isRegularFile(file)) {
          throw new UsageException("-conf: no such Hadoop configuration file: " + file);
        }
        files.add(file);
      } else {
        rest.add(a);
      }
    }
    return new Split(new HadoopOptions(files, props), rest);
  }

  /** True when the command line gave no generic option. */
  boolean isEmpty() {
    return confFiles.isEmpty() && properties.isEmpty();
  }

  /** A fresh Hadoop configuration with these options applied. */
  Configuration configuration() {
    return forLocalJobs(applyTo(new Configuration()));
  }

  /**
   * The configuration of a command whose Hadoop work runs on this machine whatever the class path's
   * Hadoop configuration names (the embedded instance of {@code demo}): the local file system and
   * job runner, then these options.
   */
  Configuration localConfiguration() {
    Configuration conf = new Configuration();
    conf.set("fs.defaultFS", "file:///");
    conf.set("mapreduce.framework.name", "local");
    return forLocalJobs(applyTo(conf));
  }

  /**
   * {@code conf} with {@link ForklessLocalFileSystem} for {@code file:} when its jobs run on the
   * local job runner and nothing names the class of {@code file:} already; {@code conf} itself.
   */
  static Configuration forLocalJobs(Configuration conf) {
    if (conf.get(ForklessLocalFileSystem.IMPL_KEY) == null && "local".equals(framework(conf))) {
      conf.set(
          ForklessLocalFileSystem.IMPL_KEY,
          ForklessLocalFileSystem.class.getName(),
          "bin/webindex: the local job runner");
    }
    return conf;
  }

  private Configuration applyTo(Configuration conf) {
    for (Path f : confFiles) {
      conf.addResource(new org.apache.hadoop.fs.Path(f.toUri()));
    }
    properties.forEach((k, v) -> conf.set(k, v, "bin/webindex -D"));
    return conf;
  }

  /**
   * Where {@code conf}'s jobs would run: {@code mapreduce.framework.name} as a job sees it. A plain
   * Hadoop configuration reads {@code core-site.xml} only; MapReduce adds its defaults and {@code
   * mapred-site.xml} (where a cluster names {@code yarn}) to the default resources of every
   * configuration when its job classes load, which may come after this is asked: a {@link JobConf}
   * loads them now, in their place (after {@code core-site.xml}, before {@code -conf} files and
   * {@code -D} values).
   */
  static String framework(Configuration conf) {
    new JobConf(false); // its class's initialiser adds MapReduce's default resources
    return conf.get("mapreduce.framework.name", "local");
  }
}
