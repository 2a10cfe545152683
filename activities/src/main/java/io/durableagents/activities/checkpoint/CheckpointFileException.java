package io.durableagents.activities.checkpoint;

/** A checkpoint that cannot be read or is not whole: the message names it and says what is wrong. */
public class CheckpointFileException extends RuntimeException {
  public CheckpointFileException(String message) {
    super(message);
  }

  public CheckpointFileException(String message, Throwable cause) {
    super(message, cause);
  }
}
