mod props;
mod specs;
