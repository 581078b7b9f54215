// @aalis/plugin-memory-vector: Long-term memory (向量记忆): every archived message indexed for full text (and dense vectors), the most relevant past messages recalled into each turn within who-may-see-what scopes
export {};
