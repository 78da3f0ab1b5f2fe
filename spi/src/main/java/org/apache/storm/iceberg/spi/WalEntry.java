package org.apache.storm.iceberg.spi;

import java.util.Objects;

/**
 * One stored WAL entry: the commit id it was put under, where it lives (for messages), and its
 * payload. The payload's format belongs to the kernel; stores treat it as opaque bytes.
 */
public final class WalEntry {
  private final String commitId;
  private final String location;
  private final byte[] payload;

  public WalEntry(String commitId, String location, byte[] payload) {
    this.commitId = Objects.requireNonNull(commitId, "commitId");
    this.location = Objects.requireNonNull(location, "location");
    this.payload = Objects.requireNonNull(payload, "payload");
  }

  public String commitId() {
    return commitId;
  }

  public String location() {
    return location;
  }

  public byte[] payload() {
    return payload;
  }
}
