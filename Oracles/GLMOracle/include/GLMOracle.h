int glm_oracle_placeholder(void);
