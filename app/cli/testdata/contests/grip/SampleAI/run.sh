#!/bin/sh
java SampleAI
