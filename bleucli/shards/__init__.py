"""The shards wing: ``bleucli stats`` writes a shard of sufficient statistics, ``bleucli merge`` sums shards."""
