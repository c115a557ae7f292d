package io.webindex.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The lock that marks a directory as in use by a running {@code bin/webindex dev}: an OS file lock
 * on {@code <dir>/dev.lock}, which also holds the owner's pid. The operating system drops the lock
 * when the process ends, however it ends, so a lock is never stale.
 */
final class DevLock implements AutoCloseable {
  static final String FILE = "dev.lock";

  private final FileChannel channel;
  private final FileLock lock;

  private DevLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Takes the lock of {@code dir}, which is created owner-only ({@code rwx------}) if needed, or
   * restricted to its owner if it exists: it will hold the password file and the instance.
   *
   * @throws UsageException when another process holds it
   */
  static DevLock acquire(Path dir) throws IOException {
    EmbeddedAccumulo.createOwnerOnlyDirectory(dir);
    Path file = dir.resolve(FILE);
    FileChannel ch =
        FileChannel.open(
            file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = ch.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null;
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
    if (lock == null) {
      ch.close();
      String pid = Files.readString(file, StandardCharsets.UTF_8).strip();
      throw new UsageException(
          "an embedded instance is already running in "
              + dir
              + (pid.isEmpty() ? "" : " (pid " + pid + ")")
              + ": use it, stop it with Ctrl-C in its terminal, or pass --dir DIR");
    }
    ch.truncate(0);
    ch.write(
        ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.UTF_8)),
        0);
    ch.force(false);
    return new DevLock(ch, lock);
  }

  /** True when a live process holds the lock of {@code dir}. */
  static boolean isHeld(Path dir) {
    Path file = dir.resolve(FILE);
    if (!Files.isRegularFile(file)) {
      return false;
    }
    try (FileChannel ch =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      FileLock probe = ch.tryLock();
      if (probe == null) {
        return true;
      }
      probe.release();
      return false;
    } catch (OverlappingFileLockException e) {
      return true; // held by this very JVM
    } catch (IOException e) {
      return false;
    }
  }

  @Override
  public void close() throws IOException {
    try {
      if (lock.isValid()) {
        lock.release();
      }
    } finally {
      channel.close();
    }
  }
}
