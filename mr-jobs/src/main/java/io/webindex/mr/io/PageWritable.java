package io.webindex.mr.io;

import io.webindex.core.model.Page;
import io.webindex.core.model.PageCodec;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Writable;

/** A page version in the compact binary form of {@link PageCodec}. */
public final class PageWritable implements Writable {
  private Page page;

  public PageWritable() {}

  public PageWritable(Page page) {
    this.page = page;
  }

  public Page get() {
    return page;
  }

  public PageWritable set(Page p) {
    this.page = p;
    return this;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    PageCodec.write(out, page);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    page = PageCodec.read(in); // a new object each time: safe to keep across Hadoop's value reuse
  }
}
