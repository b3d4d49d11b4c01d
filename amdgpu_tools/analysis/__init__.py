"""Static analysis of code objects: resource usage and occupancy (``resources``),
control-flow graphs (``cfg``) and their drawings (``cfg_draw``), and the
profile page of a run (``profile_html``)."""
