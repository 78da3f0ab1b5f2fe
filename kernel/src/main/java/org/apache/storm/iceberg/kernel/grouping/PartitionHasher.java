package org.apache.storm.iceberg.kernel.grouping;

import java.util.HashSet;
import java.util.Set;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.util.StructLikeWrapper;
import org.apache.storm.iceberg.spi.FormerNamesSchema;
import org.apache.storm.iceberg.spi.InternalRowMapper;
import org.apache.storm.iceberg.spi.RecordMapper;
import org.apache.storm.tuple.ITuple;

/**
 * A tuple's Iceberg partition key under one spec and schema of the table, as a hash: the sink's
 * record mapper maps the tuple, and Iceberg's {@link PartitionKey} computes the key from the row,
 * as the sink's batch does. Two tuples whose rows fall in one partition get one hash.
 *
 * <p>The mapper is first given only the columns the spec reads (with their former names, as the
 * sink gives them), which is cheaper than the whole row. A mapper that refuses such a projection (a
 * strict mapper refuses tuple fields with no column) is given the whole schema from then on.
 *
 * <p>The hash is Iceberg's {@link StructLikeWrapper} hash of the key, used as it is: for a key of
 * one integer (a bucket, a day or hour ordinal) it grows with the value, so consecutive buckets or
 * days reach consecutive tasks. Used from one thread.
 */
final class PartitionHasher {
  private final RecordMapper mapper;
  private final PartitionSpec spec;
  private final Schema whole;
  private final Schema projected;
  private final StructLikeWrapper keyHash;
  private Mapping mapping;

  private PartitionHasher(RecordMapper mapper, PartitionSpec spec, Schema whole, Schema projected) {
    this.mapper = mapper;
    this.spec = spec;
    this.whole = whole;
    this.projected = projected;
    this.keyHash = StructLikeWrapper.forType(spec.partitionType());
    this.mapping = new Mapping(projected);
  }

  /** The hasher for {@code table}'s current spec and schema; null when the table is unpartitioned. */
  static PartitionHasher of(Table table, RecordMapper mapper) {
    PartitionSpec spec = table.spec();
    if (spec.isUnpartitioned()) {
      return null;
    }
    Schema whole = FormerNamesSchema.of(table.schema(), table.schemas().values());
    Set<Integer> sources = new HashSet<>();
    for (PartitionField field : spec.fields()) {
      sources.add(field.sourceId());
    }
    Schema projected = FormerNamesSchema.of(TypeUtil.select(table.schema(), sources), table.schemas().values());
    return new PartitionHasher(mapper, spec, whole, projected);
  }

  int specId() {
    return spec.specId();
  }

  /**
   * The hash of {@code tuple}'s partition key.
   *
   * @throws RuntimeException when the mapper refuses the tuple or the key cannot be computed
   */
  int hash(ITuple tuple) {
    try {
      return keyHash.set(mapping.key(tuple)).hashCode();
    } catch (RuntimeException projectionRefused) {
      if (mapping.schema == whole) {
        throw projectionRefused;
      }
      Mapping wholeRows = new Mapping(whole);
      int hash = keyHash.set(wholeRows.key(tuple)).hashCode();
      mapping = wholeRows;
      return hash;
    }
  }

  /** Maps tuples against one schema and computes their keys. */
  private final class Mapping {
    final Schema schema;
    final PartitionKey key;
    final InternalRecordWrapper generic;

    Mapping(Schema schema) {
      this.schema = schema;
      this.key = new PartitionKey(spec, schema);
      this.generic = mapper instanceof InternalRowMapper ? null : new InternalRecordWrapper(schema.asStruct());
    }

    StructLike key(ITuple tuple) {
      StructLike row =
          generic == null ? ((InternalRowMapper) mapper).mapInternal(tuple, schema) : mapper.map(tuple, schema);
      if (row == null) {
        throw new IllegalStateException("record mapper " + mapper.getClass().getName() + " returned null");
      }
      key.partition(generic == null ? row : generic.wrap(row));
      return key;
    }
  }
}
