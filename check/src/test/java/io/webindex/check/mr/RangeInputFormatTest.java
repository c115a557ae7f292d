package io.webindex.check.mr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.junit.jupiter.api.Test;

/** The MapReduce check's map tasks: one per tablet range, each cut at the row boundaries. */
class RangeInputFormatTest {
  /** Each split's ranges as "start..end", read through the record reader. */
  private static List<List<String>> read(List<InputSplit> splits) {
    List<List<String>> out = new ArrayList<>();
    for (InputSplit s : splits) {
      RangeInputFormat.RangesReader r = new RangeInputFormat.RangesReader();
      r.initialize(s, null);
      List<String> ranges = new ArrayList<>();
      while (r.nextKeyValue()) {
        ranges.add(r.getCurrentKey() + ".." + r.getCurrentValue());
      }
      assertEquals(1f, r.getProgress());
      out.add(ranges);
    }
    return out;
  }

  @Test
  void oneTabletIsOneTaskOverEveryRowRange() throws IOException {
    Job job = Job.getInstance(new Configuration(false));
    RangeInputFormat.setBoundaries(job.getConfiguration(), List.of("d:", "p:", "t:"), Set.of());
    assertEquals(
        List.of(List.of("..d:", "d:..p:", "p:..t:", "t:..")),
        read(new RangeInputFormat().getSplits(job)));
  }

  @Test
  void eachSplitPointStartsATask() throws IOException {
    Job job = Job.getInstance(new Configuration(false));
    RangeInputFormat.setBoundaries(
        job.getConfiguration(),
        List.of("d:", "p:", "p:com.b", "p:com.m", "t:"),
        List.of("p:com.b", "p:com.m"));
    assertEquals(
        List.of(
            List.of("..d:", "d:..p:", "p:..p:com.b"),
            List.of("p:com.b..p:com.m"),
            List.of("p:com.m..t:", "t:..")),
        read(new RangeInputFormat().getSplits(job)));
  }

  @Test
  void aSplitPointThatIsTheLastBoundaryLeavesOneRangeToTheEnd() {
    assertEquals(
        List.of(List.of("..d:", "d:..p:", "p:..t:"), List.of("t:..u"), List.of("u..")),
        read(RangeInputFormat.splits(List.of("d:", "p:", "t:", "u"), Set.of("t:", "u"))));
    assertEquals(List.of(List.of("..")), read(RangeInputFormat.splits(List.of(), Set.of())));
  }

  @Test
  void aSplitTravelsToItsTaskWhole() throws IOException {
    RangeInputFormat.RangeSplit split =
        new RangeInputFormat.RangeSplit(List.of("p:com.b", "p:é", "t:", ""));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    split.write(new DataOutputStream(bytes));
    RangeInputFormat.RangeSplit back = new RangeInputFormat.RangeSplit();
    back.readFields(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
    assertEquals(List.of(List.of("p:com.b..p:é", "p:é..t:", "t:..")), read(List.of(back)));
    assertEquals(3, back.getLength());
  }

  @Test
  void aTaskSplitMustBeABoundary() {
    Configuration c = new Configuration(false);
    assertThrows(
        IllegalArgumentException.class,
        () -> RangeInputFormat.setBoundaries(c, List.of("d:", "p:"), List.of("p:com.b")));
  }
}
