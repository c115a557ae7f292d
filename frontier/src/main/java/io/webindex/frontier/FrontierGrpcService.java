package io.webindex.frontier;

import io.webindex.core.frontier.service.FrontierUnavailableException;
import io.webindex.core.frontier.service.UrlFrontier;
import io.webindex.frontier.shaded.crawlercommons.urlfrontier.URLFrontierGrpc;
import io.webindex.frontier.shaded.crawlercommons.urlfrontier.Urlfrontier;
import io.webindex.frontier.shaded.io.grpc.Status;
import io.webindex.frontier.shaded.io.grpc.StatusRuntimeException;
import io.webindex.frontier.shaded.io.grpc.stub.ServerCallStreamObserver;
import io.webindex.frontier.shaded.io.grpc.stub.StreamObserver;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The URLFrontier 2.5 gRPC service: every rpc of the protocol mapped onto a {@link UrlFrontier}.
 *
 * <p>Crawl ids: an empty one is {@link UrlFrontier#DEFAULT_CRAWL}; {@code GetURLs} without a crawl
 * id (or with {@code anyCrawlID}) serves every crawl. The {@code local} flags change nothing: every
 * frontier process of an index shares one state. Failures reach the client as a gRPC status with a
 * one-line description, never a stack trace: a request the protocol's rules refuse ({@link
 * IllegalArgumentException}) is {@code INVALID_ARGUMENT}, an operation the frontier does not do for
 * that crawl ({@link UnsupportedOperationException}) {@code FAILED_PRECONDITION}, an unreachable
 * store ({@link FrontierUnavailableException}) {@code UNAVAILABLE}, anything else {@code INTERNAL}
 * (logged here with its stack trace).
 */
public final class FrontierGrpcService extends URLFrontierGrpc.URLFrontierImplBase {
  private static final Logger log = LoggerFactory.getLogger(FrontierGrpcService.class);

  /** What {@code ListQueues} and {@code ListURLs} answer at most when the request says 0. */
  static final int DEFAULT_PAGE_SIZE = 100;

  private final UrlFrontier frontier;
  private final Supplier<String> node;

  /** Stores the items of PutURLs streams (a thread per stream storing, while it stores). */
  private final ExecutorService puts =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "frontier-put");
            t.setDaemon(true);
            return t;
          });

  /**
   * @param frontier the frontier the rpcs act on (not closed by the service)
   * @param node this node's {@code host:port}, what {@code ListNodes} answers
   */
  public FrontierGrpcService(UrlFrontier frontier, Supplier<String> node) {
    this.frontier = frontier;
    this.node = node;
  }

  @Override
  public void listNodes(Urlfrontier.Empty request, StreamObserver<Urlfrontier.StringList> out) {
    unary(out, () -> Urlfrontier.StringList.newBuilder().addValues(node.get()).build());
  }

  @Override
  public void listCrawls(Urlfrontier.Local request, StreamObserver<Urlfrontier.StringList> out) {
    unary(
        out, () -> Urlfrontier.StringList.newBuilder().addAllValues(frontier.listCrawls()).build());
  }

  @Override
  public void deleteCrawl(
      Urlfrontier.DeleteCrawlMessage request, StreamObserver<Urlfrontier.Long> out) {
    unary(out, () -> count(frontier.deleteCrawl(crawl(request.getValue()))));
  }

  @Override
  public void listQueues(
      Urlfrontier.Pagination request, StreamObserver<Urlfrontier.QueueList> out) {
    unary(
        out,
        () -> {
          String crawl = crawl(request.getCrawlID());
          long start = Integer.toUnsignedLong(request.getStart());
          long size = pageSize(request.getSize());
          List<String> queues =
              frontier.listQueues(crawl, start, size, request.getIncludeInactive());
          return Urlfrontier.QueueList.newBuilder()
              .addAllValues(queues)
              .setStart(request.getStart())
              .setSize(queues.size())
              .setCrawlID(crawl)
              .build();
        });
  }

  /** One pass over the queues, each URL sent as soon as the frontier hands it out, then the end. */
  @Override
  public void getURLs(Urlfrontier.GetParams request, StreamObserver<Urlfrontier.URLInfo> out) {
    try {
      UrlFrontier.GetParams params =
          new UrlFrontier.GetParams(
              request.getMaxUrlsPerQueue(),
              request.getMaxQueues(),
              request.getKey(),
              request.getDelayRequestable(),
              request.hasCrawlID() ? crawl(request.getCrawlID()) : null);
      frontier.getUrls(params, info -> out.onNext(toProto(info)));
      out.onCompleted();
    } catch (RuntimeException e) {
      fail(out, e);
    }
  }

  /**
   * Each item is answered in order, as soon as it is stored: its {@code ID} (the URL when it has
   * none) with {@code OK}, {@code SKIPPED} (invalid, or a discovered URL already known: do not send
   * it again) or {@code FAIL} (the store could not be reached: it may be sent again). The items
   * that arrive while earlier ones are being stored are stored together ({@link
   * UrlFrontier#putAll}: one read and one write per queue), at most {@value #PUT_BATCH} at a time;
   * the stream takes no more items from the client than that ahead of the acks.
   */
  @Override
  public StreamObserver<Urlfrontier.URLItem> putURLs(StreamObserver<Urlfrontier.AckMessage> acks) {
    PutStream stream = new PutStream(acks);
    if (acks instanceof ServerCallStreamObserver<Urlfrontier.AckMessage> call) {
      call.disableAutoRequest();
      stream.call = call;
      call.request(PUT_BATCH);
    }
    return stream;
  }

  /** Items of one PutURLs stream stored together at most. */
  static final int PUT_BATCH = 256;

  /**
   * One PutURLs stream: the items queue up as they arrive; one task at a time (on {@link #puts})
   * takes all that are queued, stores them and sends their acks, until none are left. Only that
   * task sends on the stream, so the acks go out in order.
   */
  private final class PutStream implements StreamObserver<Urlfrontier.URLItem> {
    private final StreamObserver<Urlfrontier.AckMessage> acks;
    private ServerCallStreamObserver<Urlfrontier.AckMessage> call;
    private final ArrayDeque<Urlfrontier.URLItem> pending = new ArrayDeque<>();
    private boolean draining;
    private boolean completed;
    private volatile boolean gone;

    PutStream(StreamObserver<Urlfrontier.AckMessage> acks) {
      this.acks = acks;
    }

    @Override
    public void onNext(Urlfrontier.URLItem item) {
      synchronized (this) {
        pending.add(item);
        if (draining) {
          return;
        }
        draining = true;
      }
      puts.execute(this::drain);
    }

    @Override
    public void onError(Throwable t) {
      gone = true;
      log.debug("PutURLs: the client ended the stream: {}", t.toString());
    }

    @Override
    public void onCompleted() {
      synchronized (this) {
        completed = true;
        if (draining) {
          return; // the task under way ends the stream after the last ack
        }
      }
      end();
    }

    private void drain() {
      while (true) {
        List<Urlfrontier.URLItem> batch = new ArrayList<>();
        boolean end;
        synchronized (this) {
          while (!pending.isEmpty() && batch.size() < PUT_BATCH) {
            batch.add(pending.poll());
          }
          if (batch.isEmpty()) {
            draining = false;
            end = completed;
          } else {
            end = false;
          }
        }
        if (batch.isEmpty()) {
          if (end) {
            end();
          }
          return;
        }
        List<UrlFrontier.Ack> answers = putBatch(batch);
        for (int i = 0; i < batch.size(); i++) {
          send(
              Urlfrontier.AckMessage.newBuilder()
                  .setID(ackId(batch.get(i)))
                  .setStatus(status(answers.get(i)))
                  .build());
        }
        if (call != null && !gone) {
          call.request(batch.size());
        }
      }
    }

    private void send(Urlfrontier.AckMessage ack) {
      if (gone) {
        return;
      }
      try {
        acks.onNext(ack);
      } catch (RuntimeException e) {
        gone = true; // the call was cancelled: nobody to answer
        log.debug("PutURLs: the client is gone: {}", e.toString());
      }
    }

    private void end() {
      if (gone) {
        return;
      }
      try {
        acks.onCompleted();
      } catch (RuntimeException e) {
        log.debug("PutURLs: the client is gone: {}", e.toString());
      }
    }
  }

  /**
   * Stores the items that arrived together; never throws. An item the protocol's rules refuse is
   * {@code SKIPPED} without asking the frontier.
   */
  List<UrlFrontier.Ack> putBatch(List<Urlfrontier.URLItem> items) {
    UrlFrontier.Ack[] out = new UrlFrontier.Ack[items.size()];
    List<UrlFrontier.PutItem> valid = new ArrayList<>(items.size());
    List<Integer> at = new ArrayList<>(items.size());
    for (int i = 0; i < items.size(); i++) {
      try {
        valid.add(fromProto(items.get(i)));
        at.add(i);
      } catch (IllegalArgumentException e) {
        log.debug("PutURLs: skipped {}: {}", ackId(items.get(i)), e.getMessage());
        out[i] = UrlFrontier.Ack.SKIPPED;
      }
    }
    List<UrlFrontier.Ack> acks;
    try {
      acks = valid.isEmpty() ? List.of() : frontier.putAll(valid);
    } catch (RuntimeException e) {
      log.error("PutURLs: {} items not stored", valid.size(), e);
      acks = Collections.nCopies(valid.size(), UrlFrontier.Ack.FAIL);
    }
    for (int j = 0; j < at.size(); j++) {
      UrlFrontier.Ack a = acks.get(j);
      if (a == UrlFrontier.Ack.FAIL) {
        log.warn("PutURLs: {} not stored (may be sent again)", ackId(items.get(at.get(j))));
      }
      out[at.get(j)] = a;
    }
    return List.of(out);
  }

  /** The item the protocol's way: discovered, or known with its refetch date. */
  static UrlFrontier.PutItem fromProto(Urlfrontier.URLItem item) {
    switch (item.getItemCase()) {
      case DISCOVERED:
        if (!item.getDiscovered().hasInfo()) {
          throw new IllegalArgumentException("a discovered item without its URL");
        }
        return new UrlFrontier.PutItem(fromProto(item.getDiscovered().getInfo()), true, 0);
      case KNOWN:
        if (!item.getKnown().hasInfo()) {
          throw new IllegalArgumentException("a known item without its URL");
        }
        return new UrlFrontier.PutItem(
            fromProto(item.getKnown().getInfo()), false, item.getKnown().getRefetchableFromDate());
      default:
        throw new IllegalArgumentException("an item neither discovered nor known");
    }
  }

  /** The acknowledgement's id: the item's, else its URL. */
  static String ackId(Urlfrontier.URLItem item) {
    if (!item.getID().isEmpty()) {
      return item.getID();
    }
    switch (item.getItemCase()) {
      case DISCOVERED:
        return item.getDiscovered().getInfo().getUrl();
      case KNOWN:
        return item.getKnown().getInfo().getUrl();
      default:
        return "";
    }
  }

  static Urlfrontier.AckMessage.Status status(UrlFrontier.Ack ack) {
    switch (ack) {
      case OK:
        return Urlfrontier.AckMessage.Status.OK;
      case SKIPPED:
        return Urlfrontier.AckMessage.Status.SKIPPED;
      default:
        return Urlfrontier.AckMessage.Status.FAIL;
    }
  }

  @Override
  public void getStats(
      Urlfrontier.QueueWithinCrawlParams request, StreamObserver<Urlfrontier.Stats> out) {
    unary(
        out,
        () -> {
          UrlFrontier.Stats s = frontier.stats(crawl(request.getCrawlID()), request.getKey());
          return Urlfrontier.Stats.newBuilder()
              .setSize(s.size())
              .setInProcess((int) Math.min(s.inProcess(), 0xFFFF_FFFFL))
              .putAllCounts(s.counts())
              .setNumberOfQueues(s.queues())
              .setCrawlID(s.crawl())
              .build();
        });
  }

  @Override
  public void deleteQueue(
      Urlfrontier.QueueWithinCrawlParams request, StreamObserver<Urlfrontier.Long> out) {
    unary(out, () -> count(frontier.deleteQueue(crawl(request.getCrawlID()), request.getKey())));
  }

  @Override
  public void blockQueueUntil(
      Urlfrontier.BlockQueueParams request, StreamObserver<Urlfrontier.Empty> out) {
    unary(
        out,
        () -> {
          frontier.blockQueueUntil(
              crawl(request.getCrawlID()), request.getKey(), request.getTime());
          return Urlfrontier.Empty.getDefaultInstance();
        });
  }

  @Override
  public void setActive(Urlfrontier.Active request, StreamObserver<Urlfrontier.Empty> out) {
    unary(
        out,
        () -> {
          frontier.setActive(request.getState());
          return Urlfrontier.Empty.getDefaultInstance();
        });
  }

  @Override
  public void getActive(Urlfrontier.Local request, StreamObserver<Urlfrontier.Boolean> out) {
    unary(out, () -> Urlfrontier.Boolean.newBuilder().setState(frontier.active()).build());
  }

  @Override
  public void setDelay(
      Urlfrontier.QueueDelayParams request, StreamObserver<Urlfrontier.Empty> out) {
    unary(
        out,
        () -> {
          frontier.setDelay(
              crawl(request.getCrawlID()), request.getKey(), request.getDelayRequestable());
          return Urlfrontier.Empty.getDefaultInstance();
        });
  }

  /**
   * Not supported: the frontier's log levels are those of its log4j configuration (and {@code -v}),
   * set when the process starts; a client changing them at run time would change them for every
   * other client of the process too.
   */
  @Override
  public void setLogLevel(
      Urlfrontier.LogLevelParams request, StreamObserver<Urlfrontier.Empty> out) {
    out.onError(
        Status.UNIMPLEMENTED
            .withDescription(
                "SetLogLevel is not supported: the frontier's log levels come from its log4j"
                    + " configuration")
            .asRuntimeException());
  }

  @Override
  public void setCrawlLimit(
      Urlfrontier.CrawlLimitParams request, StreamObserver<Urlfrontier.Empty> out) {
    unary(
        out,
        () -> {
          frontier.setCrawlLimit(
              crawl(request.getCrawlID()),
              request.getKey(),
              Integer.toUnsignedLong(request.getLimit()));
          return Urlfrontier.Empty.getDefaultInstance();
        });
  }

  @Override
  public void getURLStatus(
      Urlfrontier.URLStatusRequest request, StreamObserver<Urlfrontier.URLItem> out) {
    unary(
        out,
        () -> {
          Optional<UrlFrontier.UrlStatus> s =
              frontier.urlStatus(crawl(request.getCrawlID()), request.getUrl(), request.getKey());
          if (s.isEmpty()) {
            throw Status.NOT_FOUND
                .withDescription("the frontier does not know " + oneLine(request.getUrl()))
                .asRuntimeException();
          }
          return toProto(s.get());
        });
  }

  @Override
  public void listURLs(Urlfrontier.ListUrlParams request, StreamObserver<Urlfrontier.URLItem> out) {
    try {
      UrlFrontier.UrlSelection selection =
          new UrlFrontier.UrlSelection(
              crawl(request.getCrawlID()),
              request.getKey(),
              request.hasFilter() ? request.getFilter() : null,
              request.getIgnoreCase(),
              Integer.toUnsignedLong(request.getStart()),
              pageSize(request.getSize()));
      frontier.listUrls(selection, s -> out.onNext(toProto(s)));
      out.onCompleted();
    } catch (RuntimeException e) {
      fail(out, e);
    }
  }

  @Override
  public void countURLs(Urlfrontier.CountUrlParams request, StreamObserver<Urlfrontier.Long> out) {
    unary(
        out,
        () ->
            count(
                frontier.countUrls(
                    new UrlFrontier.UrlSelection(
                        crawl(request.getCrawlID()),
                        request.getKey(),
                        request.hasFilter() ? request.getFilter() : null,
                        request.getIgnoreCase(),
                        0,
                        0))));
  }

  // --- mapping ---

  static String crawl(String crawl) {
    return UrlFrontier.normaliseCrawl(crawl);
  }

  /** A page size of the protocol (unsigned; 0: the default, 100). */
  static long pageSize(int size) {
    return size == 0 ? DEFAULT_PAGE_SIZE : Integer.toUnsignedLong(size);
  }

  static Urlfrontier.Long count(long n) {
    return Urlfrontier.Long.newBuilder().setValue(n).build();
  }

  static UrlFrontier.UrlInfo fromProto(Urlfrontier.URLInfo info) {
    Map<String, List<String>> metadata = new LinkedHashMap<>();
    info.getMetadataMap().forEach((k, v) -> metadata.put(k, new ArrayList<>(v.getValuesList())));
    return new UrlFrontier.UrlInfo(info.getUrl(), info.getKey(), info.getCrawlID(), metadata);
  }

  static Urlfrontier.URLInfo toProto(UrlFrontier.UrlInfo info) {
    Urlfrontier.URLInfo.Builder b =
        Urlfrontier.URLInfo.newBuilder()
            .setUrl(info.url())
            .setKey(info.queue())
            .setCrawlID(crawl(info.crawl()));
    info.metadata()
        .forEach(
            (k, v) ->
                b.putMetadata(k, Urlfrontier.StringList.newBuilder().addAllValues(v).build()));
    return b.build();
  }

  /** A URL's state as the protocol reports it: a known item with its refetch date. */
  static Urlfrontier.URLItem toProto(UrlFrontier.UrlStatus status) {
    return Urlfrontier.URLItem.newBuilder()
        .setKnown(
            Urlfrontier.KnownURLItem.newBuilder()
                .setInfo(toProto(status.info()))
                .setRefetchableFromDate(status.refetchableFromSeconds()))
        .build();
  }

  // --- answers and failures ---

  private static <T> void unary(StreamObserver<T> out, Supplier<T> answer) {
    T value;
    try {
      value = answer.get();
    } catch (RuntimeException e) {
      fail(out, e);
      return;
    }
    out.onNext(value);
    out.onCompleted();
  }

  private static void fail(StreamObserver<?> out, RuntimeException e) {
    StatusRuntimeException status = toStatus(e);
    try {
      out.onError(status);
    } catch (RuntimeException gone) {
      // the call was cancelled (the client went away, say): nobody to tell
      log.debug("the client is gone: {}", gone.toString());
    }
  }

  /** The gRPC status of a failure: its code, and a one-line description without a stack trace. */
  static StatusRuntimeException toStatus(RuntimeException e) {
    if (e instanceof StatusRuntimeException s) {
      return s;
    }
    Status status;
    if (e instanceof IllegalArgumentException) {
      status = Status.INVALID_ARGUMENT;
    } else if (e instanceof UnsupportedOperationException) {
      status = Status.FAILED_PRECONDITION;
    } else if (e instanceof FrontierUnavailableException) {
      status = Status.UNAVAILABLE;
    } else {
      log.error("internal failure", e);
      return Status.INTERNAL
          .withDescription(
              "internal failure (the frontier's log has the details): " + oneLine(e.toString()))
          .asRuntimeException();
    }
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return status.withDescription(oneLine(message)).asRuntimeException();
  }

  /** The first line of {@code s}. */
  static String oneLine(String s) {
    int nl = s.indexOf('\n');
    return (nl < 0 ? s : s.substring(0, nl)).strip();
  }
}
