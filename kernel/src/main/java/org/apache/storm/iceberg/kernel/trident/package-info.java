/**
 * Internal to storm-iceberg: not an API, and changed without notice. The Trident stage: a state
 * task's transactions ({@link org.apache.storm.iceberg.kernel.trident.TridentTransactions}: plan at
 * {@code beginCommit}, files gathered, one commit at {@code commit}), the writing of a Trident batch's
 * tuples into data files through the kernel's map and write stages ({@link
 * org.apache.storm.iceberg.kernel.trident.TridentFiles}), and the checks a Trident topology gets when
 * its state starts.
 */
package org.apache.storm.iceberg.kernel.trident;
