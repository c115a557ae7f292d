package io.webindex.oozie;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.oozie.client.WorkflowAction;
import org.apache.oozie.client.WorkflowJob;

/**
 * The way a workflow went: its nodes from {@code :start:} on, each followed by the transition Oozie
 * recorded for it, as Oozie's client API reports them ({@link WorkflowJob#getActions()}).
 */
record Route(List<Step> steps) {

  /** One node passed: its name, Oozie's status of it and, for a failed action, its error code. */
  record Step(String node, WorkflowAction.Status status, String errorCode) {
    /** {@code name}, or {@code name(exit N)} for an action that ended in error with code N. */
    @Override
    public String toString() {
      return errorCode == null || errorCode.isEmpty() ? node : node + "(exit " + errorCode + ")";
    }
  }

  static Route of(WorkflowJob wf) {
    Map<String, WorkflowAction> byName = new HashMap<>();
    for (WorkflowAction a : wf.getActions()) {
      byName.put(a.getName(), a);
    }
    List<Step> steps = new ArrayList<>();
    String next = ":start:";
    // each node once: a node already passed is no longer in byName, so a loop ends the route
    while (next != null && byName.containsKey(next)) {
      WorkflowAction a = byName.remove(next);
      steps.add(new Step(a.getName(), a.getStatus(), a.getErrorCode()));
      next = a.getTransition();
    }
    return new Route(steps);
  }

  /**
   * The nodes in order, failed actions with their exit codes: {@code [:start:, check(exit 1), …]}.
   */
  List<String> nodes() {
    return steps.stream().map(Step::toString).toList();
  }

  /** The step of node {@code name}. */
  Step step(String name) {
    return steps.stream()
        .filter(s -> s.node().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("the workflow did not pass " + name + ": " + this));
  }

  @Override
  public String toString() {
    return String.join(" -> ", nodes());
  }
}
