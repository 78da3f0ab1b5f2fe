/**
 * Internal to storm-iceberg: not an API, and changed without notice. Schema evolution from tuples: the Iceberg type of a Java value ({@link org.apache.storm.iceberg.kernel.evolve.ValueTypes}), the schema a tuple's unfit values need ({@link org.apache.storm.iceberg.kernel.evolve.WantedSchema}), and its commit, alone, through Iceberg's {@code UpdateSchema.unionByNameWith} ({@link org.apache.storm.iceberg.kernel.evolve.SchemaEvolver}).
 */
package org.apache.storm.iceberg.kernel.evolve;
