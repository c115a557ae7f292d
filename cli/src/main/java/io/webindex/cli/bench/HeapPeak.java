package io.webindex.cli.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The largest heap use of this JVM seen by sampling it every 20 ms. The memory pools' own peaks
 * cannot be added up: each pool peaks at another moment, and their sum exceeded the maximum heap.
 */
final class HeapPeak implements Runnable {
  private volatile boolean running = true;
  private volatile long peak;
  private volatile long peakAfterGc;
  private final Thread thread = new Thread(this, "webindex-bench-heap");
  private final Set<String> heapPools = new HashSet<>();
  private final List<NotificationEmitter> emitters = new ArrayList<>();
  private final NotificationListener afterGc = this::collected;

  static HeapPeak start() {
    HeapPeak h = new HeapPeak();
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        h.heapPools.add(pool.getName());
      }
    }
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (gc instanceof NotificationEmitter e) {
        e.addNotificationListener(h.afterGc, null, null);
        h.emitters.add(e);
      }
    }
    h.thread.setDaemon(true);
    h.thread.start();
    return h;
  }

  /**
   * The heap in use right after a collection: what the JVM could not free, an upper bound of the
   * live data (the used heap between collections is mostly garbage the collector has not needed to
   * free yet, so it grows with the heap it is given, not with the input).
   */
  private void collected(Notification n, Object handback) {
    if (!n.getType().equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
      return;
    }
    GarbageCollectionNotificationInfo info =
        GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
    long used = 0;
    for (Map.Entry<String, MemoryUsage> e : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
      if (heapPools.contains(e.getKey())) {
        used += e.getValue().getUsed();
      }
    }
    peakAfterGc = Math.max(peakAfterGc, used);
  }

  @Override
  public void run() {
    MemoryMXBean mem = ManagementFactory.getMemoryMXBean();
    while (running) {
      peak = Math.max(peak, mem.getHeapMemoryUsage().getUsed());
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  long stop() {
    running = false;
    thread.interrupt();
    for (NotificationEmitter e : emitters) {
      try {
        e.removeNotificationListener(afterGc);
      } catch (ListenerNotFoundException ignored) {
        // not registered: nothing to remove
      }
    }
    return Math.max(peak, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
  }

  long peakAfterGc() {
    return peakAfterGc;
  }
}
