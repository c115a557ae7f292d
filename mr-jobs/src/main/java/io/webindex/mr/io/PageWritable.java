package io.webindex.mr.io;

import io.webindex.core.history.HistoryEntry;
import io.webindex.core.model.Page;
import io.webindex.core.model.PageCodec;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.io.Writable;

/**
 * A page version in the compact binary form of {@link PageCodec}, with the other crawls of its URL
 * that it has absorbed on the way ({@link HistoryCodec}): the crawl history of the versions a
 * combiner dropped in favour of this one, none of them in this version's own millisecond.
 */
public final class PageWritable implements Writable {
  private Page page;
  private List<HistoryEntry> others = List.of();

  public PageWritable() {}

  public PageWritable(Page page) {
    this.page = page;
  }

  public PageWritable(Page page, List<HistoryEntry> others) {
    this.page = page;
    this.others = others;
  }

  public Page get() {
    return page;
  }

  /** The crawls of the URL's other versions this one carries (never one of its own ms). */
  public List<HistoryEntry> others() {
    return others;
  }

  public PageWritable set(Page p) {
    this.page = p;
    this.others = List.of();
    return this;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    PageCodec.write(out, page);
    HistoryCodec.write(out, others);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    page = PageCodec.read(in); // a new object each time: safe to keep across Hadoop's value reuse
    others = HistoryCodec.read(in);
  }
}
