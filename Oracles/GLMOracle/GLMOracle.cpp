extern "C" int glm_oracle_placeholder(void){return 0;}
