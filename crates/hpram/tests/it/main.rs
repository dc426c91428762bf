mod specs;
