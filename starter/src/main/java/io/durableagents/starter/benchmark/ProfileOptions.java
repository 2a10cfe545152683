package io.durableagents.starter.benchmark;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The options of the benchmark's profile part ({@code --parts profile}, {@link ProfileBenchmark}), mixed
 * into the benchmark command.
 */
final class ProfileOptions {
  /** A worker configuration the profile part measures. */
  enum Worker {
    /** As the scale part starts it: no tracing, no execution journal (their defaults). */
    PLAIN("plain"),
    /**
     * With tracing on (OpenTelemetry spans exported over OTLP/HTTP to a sink in the benchmark's process) and
     * the execution journal on ({@code DURABLE_AGENTS_EXECUTION_LOG}), so that their costs show.
     */
    INSTRUMENTED("instrumented");

    final String label;

    Worker(String label) {
      this.label = label;
    }

    /** The worker's environment beyond the scale part's: {@code otlp} the sink's traces URL, {@code dir} for the journal. */
    Map<String, String> env(String otlp, Path journal) {
      if (this == PLAIN) {
        return Map.of();
      }
      return Map.of("OTEL_TRACES_EXPORTER", "otlp", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "http/protobuf",
          "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", otlp,
          io.durableagents.worker.WorkerSettings.EXECUTION_LOG, journal.toString());
    }
  }

  /** Reads a {@link Worker} by its label, naming the ones there are when it is none of them. */
  static final class WorkerConverter implements CommandLine.ITypeConverter<Worker> {
    @Override
    public Worker convert(String value) {
      for (Worker w : Worker.values()) {
        if (w.label.equals(value.trim().toLowerCase(Locale.ROOT))) {
          return w;
        }
      }
      throw new CommandLine.TypeConversionException("'" + value + "' is not one of: plain, instrumented");
    }
  }

  @Option(names = "--profile-workers", split = ",", paramLabel = "KIND", converter = WorkerConverter.class,
      description = "Worker configurations of the profile part, side by side: plain (tracing and the execution "
          + "journal off, their defaults), instrumented (tracing exported over OTLP to a sink in this process, "
          + "and the execution journal on). Default: plain,instrumented.")
  List<Worker> workers = List.of(Worker.PLAIN, Worker.INSTRUMENTED);
}
