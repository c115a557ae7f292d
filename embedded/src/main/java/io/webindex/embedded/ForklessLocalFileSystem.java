package io.webindex.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * Hadoop's local file system ({@code file:}) that sets and reads permissions through the JDK
 * instead of a child process per call.
 *
 * <p>Without Hadoop's native library (libhadoop, which Maven Central does not ship), Hadoop's
 * {@link RawLocalFileSystem} runs {@code chmod} in a child process for every file it creates with a
 * permission and every directory it makes, and {@code ls -ld} for every status whose owner, group
 * or permission is read. A MiniAccumulo's tablet server creates a file with a permission for every
 * write-ahead log, flush, compaction and bulk import, and the local job runner for every job file,
 * spill and output: on the 2-core machine a full test run started about a hundred processes a
 * second, each costing milliseconds of CPU (fork, exec, the dynamic loader) where the system call
 * costs microseconds. This class makes the same system calls ({@code chmod(2)}, {@code stat(2)})
 * from the JVM: same permissions, same owners, no process. A permission with the sticky bit, which
 * the JDK cannot set, still goes through Hadoop's {@code chmod}.
 *
 * <p>It is what {@link MiniAccumulo} configures for its servers ({@link #configure}); {@code
 * fs.file.impl} in any Hadoop {@link Configuration} selects it.
 */
public class ForklessLocalFileSystem extends LocalFileSystem {
  /** Hadoop's configuration key that names the class of the {@code file:} file system. */
  public static final String IMPL_KEY = "fs.file.impl";

  /** A checksummed local file system over {@link Raw}. */
  public ForklessLocalFileSystem() {
    super(new Raw());
  }

  /** Selects this file system for {@code file:} in {@code conf}; returns {@code conf}. */
  public static Configuration configure(Configuration conf) {
    conf.set(IMPL_KEY, ForklessLocalFileSystem.class.getName());
    return conf;
  }

  /**
   * The JDK's permission set of {@code p}'s user, group and other bits ({@code p} without the
   * sticky bit: its symbolic form is the JDK's, {@code rwxr-x---}).
   */
  static Set<PosixFilePermission> toPosix(FsPermission p) {
    return PosixFilePermissions.fromString(p.toString());
  }

  /** Hadoop's permission of the JDK's set (no sticky bit: the JDK does not report it). */
  static FsPermission fromPosix(Set<PosixFilePermission> s) {
    return FsPermission.valueOf("-" + PosixFilePermissions.toString(s));
  }

  /** The raw (unchecksummed) local file system: Hadoop's, with the JDK for permissions. */
  public static class Raw extends RawLocalFileSystem {
    @Override
    public void setPermission(Path p, FsPermission permission) throws IOException {
      if (permission.getStickyBit()) {
        super.setPermission(p, permission);
        return;
      }
      Files.setPosixFilePermissions(pathToFile(p).toPath(), toPosix(permission));
    }

    @Override
    public FileStatus getFileStatus(Path f) throws IOException {
      return new Status(super.getFileStatus(f), pathToFile(f).toPath());
    }

    @Override
    public FileStatus[] listStatus(Path f) throws IOException {
      FileStatus[] listed = super.listStatus(f);
      if (listed == null) {
        return null;
      }
      FileStatus[] out = new FileStatus[listed.length];
      for (int i = 0; i < listed.length; i++) {
        out[i] = new Status(listed[i], pathToFile(listed[i].getPath()).toPath());
      }
      return out;
    }
  }

  /**
   * A status whose owner, group and permission are read with one {@code stat(2)} the first time one
   * of them is asked for, as Hadoop's own local status does with {@code ls -ld}.
   */
  static final class Status extends FileStatus {
    private static final long serialVersionUID = 1L;
    private final transient java.nio.file.Path file;
    private transient boolean loaded;

    Status(FileStatus s, java.nio.file.Path file) throws IOException {
      super(
          s.getLen(),
          s.isDirectory(),
          s.getReplication(),
          s.getBlockSize(),
          s.getModificationTime(),
          s.getAccessTime(),
          null,
          null,
          null,
          s.isSymlink() ? s.getSymlink() : null,
          s.getPath());
      this.file = file;
    }

    private synchronized void load() {
      if (loaded) {
        return;
      }
      try {
        PosixFileAttributes a =
            Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        setPermission(fromPosix(a.permissions()));
        setOwner(a.owner().getName());
        setGroup(a.group().getName());
      } catch (NoSuchFileException gone) {
        // what Hadoop's status means to give when ls finds no file (its exit code 1): the
        // defaults, no owner or group
        setPermission(null);
        setOwner(null);
        setGroup(null);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException("cannot read the permissions of " + file, e);
      }
      loaded = true;
    }

    @Override
    public FsPermission getPermission() {
      load();
      return super.getPermission();
    }

    @Override
    public String getOwner() {
      load();
      return super.getOwner();
    }

    @Override
    public String getGroup() {
      load();
      return super.getGroup();
    }

    // equals, hashCode and compareTo are FileStatus's: by path
  }
}
