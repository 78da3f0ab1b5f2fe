package org.apache.storm.iceberg.kernel.batch;

import java.util.List;
import org.apache.storm.iceberg.kernel.position.Positions;
import org.apache.iceberg.DataFile;
import org.apache.storm.iceberg.kernel.ack.HeldTuples;

/**
 * A closed batch: its data files are durable but not yet visible, its tuples not yet acked.
 *
 * @param dataFiles the files to commit in one append
 * @param tuples the tuples whose records the files hold, to ack or fail together
 * @param records the number of records in the files
 * @param oldestTupleMillis when the batch's first tuple reached the task: its commit deadline counts from here
 * @param positions the source positions whose records the files hold (empty without source positions)
 */
public record SealedBatch(List<DataFile> dataFiles, HeldTuples tuples, long records, long oldestTupleMillis, Positions positions) {
  /** The bytes {@code files} hold on storage. */
  public static long bytesOf(List<DataFile> files) {
    long bytes = 0;
    for (DataFile file : files) {
      bytes += file.fileSizeInBytes();
    }
    return bytes;
  }
}
