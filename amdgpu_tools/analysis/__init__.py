"""Static analysis of code objects: resource usage and occupancy (``resources``)."""
