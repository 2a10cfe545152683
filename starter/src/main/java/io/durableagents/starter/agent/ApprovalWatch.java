package io.durableagents.starter.agent;

import io.durableagents.starter.approval.ApprovalTargets;
import io.durableagents.workflows.approval.ToolApproval;
import io.temporal.client.WorkflowClient;
import java.io.PrintStream;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * While {@code agent} or {@code agent run} waits for its run, says once about each tool call that starts
 * waiting for approval (its own and its sub-agents'), with the commands that decide it, so that a person
 * at the terminal knows why the run stands still. Asks the {@code approvals} query every 2 s; a query that
 * fails (the run not yet on a worker, a worker restarting) is asked again next time.
 */
final class ApprovalWatch implements AutoCloseable {
  static final long INTERVAL_MILLIS = 2_000;

  private final Thread thread;

  private ApprovalWatch(WorkflowClient client, String workflowId, PrintStream out) {
    Set<String> told = new HashSet<>();
    thread = new Thread(() -> {
      while (!Thread.currentThread().isInterrupted()) {
        try {
          Thread.sleep(INTERVAL_MILLIS);
          List<ApprovalTargets.Named> waiting = ApprovalTargets.list(client, workflowId, false);
          for (ApprovalTargets.Named n : waiting) {
            if (told.add(n.approval().workflowId() + "#" + n.approval().callId())) {
              ToolApproval a = n.approval();
              out.println("Waiting for approval: call " + n.name() + ", " + a.tool() + " " + a.arguments()
                  + (a.timeoutAt() == null ? "" : " (" + a.onTimeout() + " at " + a.timeoutAt() + ")")
                  + ": approve " + workflowId + " " + n.name() + " [--args JSON] | deny " + workflowId + " "
                  + n.name() + " --reason TEXT");
            }
          }
        } catch (InterruptedException e) {
          return;
        } catch (RuntimeException notNow) {
          // asked again at the next interval
        }
      }
    }, "approval-watch");
    thread.setDaemon(true);
  }

  /** Starts watching {@code workflowId}. */
  static ApprovalWatch start(WorkflowClient client, String workflowId, PrintStream out) {
    ApprovalWatch watch = new ApprovalWatch(client, workflowId, out);
    watch.thread.start();
    return watch;
  }

  @Override
  public void close() {
    thread.interrupt();
  }
}
