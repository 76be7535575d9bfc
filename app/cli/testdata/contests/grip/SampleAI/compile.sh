#!/bin/sh
javac SampleAI.java
