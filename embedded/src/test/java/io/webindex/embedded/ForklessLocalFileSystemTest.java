package io.webindex.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ForklessLocalFileSystem} against Hadoop's own local file system (its {@code chmod} and
 * {@code ls -ld} processes) and the JDK's view of the same files.
 */
class ForklessLocalFileSystemTest {
  @TempDir java.nio.file.Path tmp;

  private Configuration conf;
  private ForklessLocalFileSystem fs;
  private RawLocalFileSystem hadoops;

  @BeforeEach
  void setUp() throws IOException {
    conf = new Configuration(false);
    conf.set("fs.permissions.umask-mode", "022");
    fs = new ForklessLocalFileSystem();
    fs.initialize(URI.create("file:///"), conf);
    hadoops = new RawLocalFileSystem();
    hadoops.initialize(URI.create("file:///"), conf);
  }

  private Path path(String name) {
    return new Path(tmp.resolve(name).toUri());
  }

  private static String posix(java.nio.file.Path p) throws IOException {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }

  @Test
  void everyModeIsSetAsChmodSetsIt() throws IOException {
    Path f = path("f");
    try (OutputStream out = fs.create(f)) {
      out.write(1);
    }
    for (short mode = 0; mode < 01000; mode++) {
      fs.setPermission(f, new FsPermission(mode));
      // the file's mode bits as stat(2) gives them, a number: nothing of the conversion in it
      int bits = (Integer) Files.getAttribute(tmp.resolve("f"), "unix:mode") & 07777;
      assertEquals(mode, bits, "mode " + Integer.toOctalString(mode));
      assertEquals(new FsPermission(mode).toString(), posix(tmp.resolve("f")), "mode " + mode);
    }
    // a few read back by Hadoop's own ls -ld
    for (short mode : new short[] {0, 0400, 0640, 0644, 0700, 0751, 0777}) {
      fs.setPermission(f, new FsPermission(mode));
      assertEquals(new FsPermission(mode), hadoops.getFileStatus(f).getPermission());
    }
  }

  @Test
  void createdFilesAndDirectoriesGetTheUmaskedPermissionsHadoopGives() throws IOException {
    Path ours = path("ours/a/b");
    Path theirs = path("theirs/a/b");
    assertTrue(fs.mkdirs(ours, new FsPermission((short) 0750)));
    assertTrue(hadoops.mkdirs(theirs, new FsPermission((short) 0750)));
    assertEquals("rwxr-x---", posix(tmp.resolve("ours/a/b")));
    assertEquals(posix(tmp.resolve("theirs/a/b")), posix(tmp.resolve("ours/a/b")));
    assertEquals(posix(tmp.resolve("theirs/a")), posix(tmp.resolve("ours/a")));

    createWithMode(fs, new Path(ours, "file"), (short) 0666);
    createWithMode(hadoops, new Path(theirs, "file"), (short) 0666);
    assertEquals("rw-r--r--", posix(tmp.resolve("ours/a/b/file")));
    assertEquals(posix(tmp.resolve("theirs/a/b/file")), posix(tmp.resolve("ours/a/b/file")));
  }

  /** A one-byte file created with permission {@code mode} (before the umask). */
  private static void createWithMode(FileSystem on, Path file, short mode) throws IOException {
    try (OutputStream out =
        on.create(file, new FsPermission(mode), true, 4096, (short) 1, 1 << 20, null)) {
      out.write(2);
    }
  }

  @Test
  void statusesSayWhatLsSays() throws IOException {
    Path dir = path("d");
    fs.mkdirs(dir, new FsPermission((short) 0710));
    for (String name : List.of("x", "y", "z")) {
      try (OutputStream out = fs.create(new Path(dir, name))) {
        out.write(name.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      }
    }
    fs.setPermission(new Path(dir, "y"), new FsPermission((short) 0600));

    for (Path p : List.of(dir, new Path(dir, "x"), new Path(dir, "y"))) {
      FileStatus a = fs.getFileStatus(p);
      FileStatus b = hadoops.getFileStatus(p);
      assertEquals(describe(b), describe(a));
    }
    // the raw listing, checksum files included, as Hadoop's raw file system lists it
    FileSystem raw = fs.getRawFileSystem();
    assertEquals(describeAll(hadoops.listStatus(dir)), describeAll(raw.listStatus(dir)));
    assertEquals(
        describeAll(hadoops.listStatus(new Path(dir, "z"))),
        describeAll(raw.listStatus(new Path(dir, "z"))));
    // the checksummed one hides them
    assertEquals(3, fs.listStatus(dir).length);
  }

  private static String describe(FileStatus s) {
    return String.join(
        " ",
        s.getPath().toString(),
        Long.toString(s.getLen()),
        Boolean.toString(s.isDirectory()),
        Long.toString(s.getModificationTime()),
        s.getPermission().toString(),
        s.getOwner(),
        s.getGroup());
  }

  private static String describeAll(FileStatus[] all) {
    return Arrays.stream(all)
        .sorted(Comparator.comparing(FileStatus::getPath))
        .map(ForklessLocalFileSystemTest::describe)
        .collect(Collectors.joining("\n"));
  }

  @Test
  void theStickyBitGoesThroughHadoopsChmod() throws IOException {
    Path dir = path("sticky");
    fs.mkdirs(dir);
    fs.setPermission(dir, new FsPermission((short) 01777));
    assertTrue(hadoops.getFileStatus(dir).getPermission().getStickyBit());
    assertEquals("rwxrwxrwx", posix(tmp.resolve("sticky")));
  }

  @Test
  void aFileGoneBeforeItsPermissionIsReadHasHadoopsDefaults() throws IOException {
    Path f = path("gone");
    try (OutputStream out = fs.create(f)) {
      out.write(3);
    }
    FileStatus s = fs.getFileStatus(f);
    Files.delete(tmp.resolve("gone"));
    assertEquals(FsPermission.getFileDefault(), s.getPermission());
    assertEquals("", s.getOwner());
    assertEquals("", s.getGroup());
  }

  @Test
  void aConfigurationSelectsItForFileUris() throws IOException {
    Configuration c = ForklessLocalFileSystem.configure(new Configuration(false));
    c.setBoolean("fs.file.impl.disable.cache", true);
    FileSystem local = FileSystem.get(URI.create("file:///"), c);
    try {
      assertInstanceOf(ForklessLocalFileSystem.class, local);
      assertInstanceOf(ForklessLocalFileSystem.Raw.class, FileSystem.getLocal(c).getRaw());
    } finally {
      local.close();
    }
  }

  @Test
  void miniAccumulosServersGetItThroughTheirCoreSite() throws IOException {
    java.nio.file.Path conf = tmp.resolve("conf");
    MiniAccumulo.writeServersHadoopSite(conf);
    Configuration site = new Configuration(false);
    site.addResource(new Path(conf.resolve("core-site.xml").toUri()));
    assertEquals(ForklessLocalFileSystem.class.getName(), site.get("fs.file.impl"));
  }
}
