package io.durableagents.worker;

import io.temporal.activity.ActivityExecutionContext;
import io.temporal.activity.ActivityInfo;
import io.temporal.common.interceptors.ActivityInboundCallsInterceptor;
import io.temporal.common.interceptors.ActivityInboundCallsInterceptorBase;
import io.temporal.common.interceptors.WorkerInterceptorBase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Appends a line for every activity execution to a file: when it started and how it ended. Several
 * workers may share one file. With it, a test (or a person) can count how often each call really ran,
 * for example that no completed LLM call ran again after a worker was killed.
 *
 * <p>Each line is tab separated: epoch millis, event ({@code start}, {@code done}, {@code failed}),
 * workflow id, activity id, attempt, activity type, worker process id, run id (activity ids restart
 * in each run of a workflow that continued as new). {@link ExecutionLogCheck} (the command {@code
 * durable-agents check-execution-log FILE...}) reads such files and says whether any completed call ran
 * twice; docs/configuration.md describes the columns.
 */
public final class ExecutionJournal extends WorkerInterceptorBase {
  private final FileChannel channel;
  private final long pid = ProcessHandle.current().pid();

  public ExecutionJournal(Path file) {
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the execution journal " + file, e);
    }
  }

  @Override
  public ActivityInboundCallsInterceptor interceptActivity(ActivityInboundCallsInterceptor next) {
    return new ActivityInboundCallsInterceptorBase(next) {
      private ActivityExecutionContext context;

      @Override
      public void init(ActivityExecutionContext context) {
        this.context = context;
        super.init(context);
      }

      @Override
      public ActivityOutput execute(ActivityInput input) {
        ActivityInfo info = context.getInfo();
        write("start", info);
        try {
          ActivityOutput output = super.execute(input);
          write("done", info);
          return output;
        } catch (RuntimeException e) {
          write("failed", info);
          throw e;
        }
      }
    };
  }

  private void write(String event, ActivityInfo info) {
    String line = System.currentTimeMillis() + "\t" + event + "\t" + info.getWorkflowId() + "\t"
        + info.getActivityId() + "\t" + info.getAttempt() + "\t" + info.getActivityType() + "\t"
        + pid + "\t" + info.getWorkflowRunId() + "\n";
    ByteBuffer bytes = ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8));
    try {
      synchronized (channel) {
        while (bytes.hasRemaining()) {
          channel.write(bytes);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the execution journal", e);
    }
  }
}
